// SimpleAnimation: see Examples.simpleAnimation in Sources/Bonework/Examples/Examples.swift.
// swift run SimpleAnimation            (a window)
// swift run SimpleAnimation --headless --out DIR
import Bonework
import BoneworkExamples

await ExampleMain.run("SimpleAnimation", Examples.simpleAnimation)
