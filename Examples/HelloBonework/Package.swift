// swift-tools-version: 6.0
// A game prototype's package that uses Bonework. In your own package, depend on the repository
// by URL instead:
//     .package(url: "https://example.com/you/bonework.git", branch: "main"),
// and name the product in your target: .product(name: "Bonework", package: "bonework").
import Foundation
import PackageDescription

// This sample sits inside the Bonework checkout (Examples/HelloBonework) and depends on it by
// path. SwiftPM names a path dependency after its folder, which is whatever the checkout was
// cloned as, so the product's package name is read from that folder rather than written here.
let checkout = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "HelloBonework",
    dependencies: [.package(path: checkout.path)],
    targets: [
        .executableTarget(
            name: "HelloBonework",
            dependencies: [.product(name: "Bonework", package: checkout.lastPathComponent)])
    ],
    swiftLanguageModes: [.v6]
)
