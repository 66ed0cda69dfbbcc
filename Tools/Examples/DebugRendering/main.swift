// DebugRendering: see Examples.debugRendering in Sources/BoneworkExamples/Examples.swift (and this folder's README.md).
// swift run DebugRendering            (a window)
// swift run DebugRendering --headless --out DIR
import Bonework
import BoneworkExamples

await ExampleMain.run("DebugRendering", Examples.debugRendering)
