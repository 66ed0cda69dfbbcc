// DebugRendering: see Examples.debugRendering in Sources/Bonework/Examples/Examples.swift.
// swift run DebugRendering            (a window)
// swift run DebugRendering --headless --out DIR
import Bonework
import BoneworkExamples

await ExampleMain.run("DebugRendering", Examples.debugRendering)
