// IKFollowing: see Examples.ikFollowing in Sources/BoneworkExamples/Examples.swift (and this folder's README.md).
// swift run IKFollowing            (a window)
// swift run IKFollowing --headless --out DIR
import Bonework
import BoneworkExamples

await ExampleMain.run("IKFollowing", Examples.ikFollowing)
