// DressUp: see Examples.dressUp in Sources/Bonework/Examples/Examples.swift.
// swift run DressUp            (a window)
// swift run DressUp --headless --out DIR
import Bonework
import BoneworkExamples

await ExampleMain.run("DressUp", Examples.dressUp)
