// DisableRendering: see Examples.disableRendering in Sources/BoneworkExamples/Examples.swift (and this folder's README.md).
// swift run DisableRendering            (a window)
// swift run DisableRendering --headless --out DIR
import Bonework
import BoneworkExamples

await ExampleMain.run("DisableRendering", Examples.disableRendering)
