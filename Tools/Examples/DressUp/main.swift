// DressUp: see Examples.dressUp in Sources/BoneworkExamples/Examples.swift (and this folder's README.md).
// swift run DressUp            (a window)
// swift run DressUp --headless --out DIR
import Bonework
import BoneworkExamples

await ExampleMain.run("DressUp", Examples.dressUp)
