// SimpleAnimation: see Examples.simpleAnimation in Sources/BoneworkExamples/Examples.swift (and this folder's README.md).
// swift run SimpleAnimation            (a window)
// swift run SimpleAnimation --headless --out DIR
import Bonework
import BoneworkExamples

await ExampleMain.run("SimpleAnimation", Examples.simpleAnimation)
