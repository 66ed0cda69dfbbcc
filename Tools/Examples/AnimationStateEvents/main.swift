// AnimationStateEvents: see Examples.animationStateEvents in Sources/BoneworkExamples/Examples.swift (and this folder's README.md).
// swift run AnimationStateEvents            (a window)
// swift run AnimationStateEvents --headless --out DIR
import Bonework
import BoneworkExamples

await ExampleMain.run("AnimationStateEvents", Examples.animationStateEvents)
