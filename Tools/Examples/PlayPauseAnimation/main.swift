// PlayPauseAnimation: see Examples.playPauseAnimation in Sources/BoneworkExamples/Examples.swift (and this folder's README.md).
// swift run PlayPauseAnimation            (a window)
// swift run PlayPauseAnimation --headless --out DIR
import Bonework
import BoneworkExamples

await ExampleMain.run("PlayPauseAnimation", Examples.playPauseAnimation)
