// AnimationStateEvents: see Examples.animationStateEvents in Sources/Bonework/Examples/Examples.swift.
// swift run AnimationStateEvents            (a window)
// swift run AnimationStateEvents --headless --out DIR
import Bonework
import BoneworkExamples

await ExampleMain.run("AnimationStateEvents", Examples.animationStateEvents)
