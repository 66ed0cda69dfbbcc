// PlayPauseAnimation: see Examples.playPauseAnimation in Sources/Bonework/Examples/Examples.swift.
// swift run PlayPauseAnimation            (a window)
// swift run PlayPauseAnimation --headless --out DIR
import Bonework
import BoneworkExamples

await ExampleMain.run("PlayPauseAnimation", Examples.playPauseAnimation)
