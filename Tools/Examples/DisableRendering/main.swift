// DisableRendering: see Examples.disableRendering in Sources/Bonework/Examples/Examples.swift.
// swift run DisableRendering            (a window)
// swift run DisableRendering --headless --out DIR
import Bonework
import BoneworkExamples

await ExampleMain.run("DisableRendering", Examples.disableRendering)
