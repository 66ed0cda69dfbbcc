// IKFollowing: see Examples.ikFollowing in Sources/Bonework/Examples/Examples.swift.
// swift run IKFollowing            (a window)
// swift run IKFollowing --headless --out DIR
import Bonework
import BoneworkExamples

await ExampleMain.run("IKFollowing", Examples.ikFollowing)
