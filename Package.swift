// swift-tools-version: 6.0
import Foundation
import PackageDescription

// One module per layer: Image (PNG codec) -> Format (atlas + skeleton readers, SkeletonData)
// -> World (instances as columns, systems) -> Render / facade. C libraries come from Debian
// packages through system-library targets.
let package = Package(
    name: "Bonework",
    products: [
        .library(name: "Bonework", targets: ["Bonework"]),
        .library(name: "BoneworkFormat", targets: ["BoneworkFormat"]),
        .library(name: "BoneworkImage", targets: ["BoneworkImage"]),
        .library(name: "BoneworkWorld", targets: ["BoneworkWorld"]),
        .library(name: "BoneworkRender", targets: ["BoneworkRender"]),
        .library(name: "BoneworkAssets", targets: ["BoneworkAssets"]),
        .library(name: "BoneworkProfiling", targets: ["BoneworkProfiling"]),
        .library(name: "BoneworkTriggers", targets: ["BoneworkTriggers"]),
        .library(name: "BoneworkConformance", targets: ["BoneworkConformance"]),
        .executable(name: "bonework", targets: ["bonework"]),
    ],
    targets: [
        .systemLibrary(
            name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CGLFW", path: "Sources/CGLFW", pkgConfig: "glfw3",
            providers: [.apt(["libglfw3-dev"])]),
        .systemLibrary(
            name: "CGL", path: "Sources/CGL", pkgConfig: "gl",
            providers: [.apt(["libgl-dev"])]),
        .systemLibrary(
            name: "CEGL", path: "Sources/CEGL", pkgConfig: "egl",
            providers: [.apt(["libegl-dev"])]),
        .target(name: "BoneworkImage", dependencies: ["CPNG"]),
        .target(name: "BoneworkFormat", dependencies: ["BoneworkImage"]),
        // The runtime core: storage, compiled rigs, timelines, animation state, pose and
        // constraints, slots and vertices, the scheduler and the profiler's recording.
        .target(name: "BoneworkWorld", dependencies: ["BoneworkFormat"]),
        // Add-ons around the core (each depends on it, never the reverse).
        .target(
            name: "BoneworkProfiling", dependencies: ["BoneworkWorld", "BoneworkFormat", "BoneworkImage"]),
        .target(name: "BoneworkTriggers", dependencies: ["BoneworkWorld", "BoneworkFormat"]),
        .target(name: "BoneworkConformance", dependencies: ["BoneworkWorld", "BoneworkFormat"]),
        .target(
            name: "BoneworkRender",
            dependencies: ["BoneworkWorld", "BoneworkFormat", "BoneworkImage", "CGL", "CEGL", "CGLFW"]),
        .target(
            name: "Bonework",
            dependencies: ["BoneworkWorld", "BoneworkRender", "BoneworkFormat", "BoneworkImage", "BoneworkAssets"]),
        // The examples' shared code (each example is also an executable in Tools/Examples).
        .target(
            name: "BoneworkExamples",
            dependencies: ["Bonework", "BoneworkWorld", "BoneworkRender", "BoneworkFormat", "BoneworkAssets"]),
        .target(
            name: "BoneworkAssets", dependencies: ["BoneworkFormat"],
            resources: [.copy("Resources/DefaultCharacter")]),
        // The bonework tool's allocation counter (it defines malloc; no library links it).
        .target(name: "CAllocationCounter"),
        .executableTarget(
            name: "bonework",
            dependencies: [
                "BoneworkFormat", "Bonework", "BoneworkWorld", "BoneworkRender", "BoneworkAssets", "BoneworkImage",
                "BoneworkProfiling", "BoneworkTriggers", "BoneworkConformance", "CAllocationCounter",
            ],
            path: "Tools/bonework"),
        .executableTarget(
            name: "SimpleAnimation", dependencies: ["BoneworkExamples"], path: "Tools/Examples/SimpleAnimation",
            exclude: ["README.md"]),
        .executableTarget(
            name: "PlayPauseAnimation", dependencies: ["BoneworkExamples"], path: "Tools/Examples/PlayPauseAnimation",
            exclude: ["README.md"]),
        .executableTarget(
            name: "AnimationStateEvents", dependencies: ["BoneworkExamples"],
            path: "Tools/Examples/AnimationStateEvents", exclude: ["README.md"]),
        .executableTarget(
            name: "DebugRendering", dependencies: ["BoneworkExamples"], path: "Tools/Examples/DebugRendering",
            exclude: ["README.md"]),
        .executableTarget(
            name: "DressUp", dependencies: ["BoneworkExamples"], path: "Tools/Examples/DressUp", exclude: ["README.md"]),
        .executableTarget(
            name: "IKFollowing", dependencies: ["BoneworkExamples"], path: "Tools/Examples/IKFollowing",
            exclude: ["README.md"]),
        .executableTarget(
            name: "DisableRendering", dependencies: ["BoneworkExamples"], path: "Tools/Examples/DisableRendering",
            exclude: ["README.md"]),
        // What the `play` fuzz target does with a skeleton that loads (Tools/fuzz.sh), shared with
        // the test that replays its regression inputs.
        .target(
            name: "BoneworkFuzzPlay", dependencies: ["BoneworkFormat", "BoneworkWorld", "BoneworkRender"],
            path: "Tools/Fuzz/Play"),
        .executableTarget(
            name: "make-default-character", dependencies: ["BoneworkImage", "BoneworkFormat"],
            path: "Tools/make-default-character"),
        .executableTarget(
            name: "BoneworkBenchmarks",
            dependencies: ["BoneworkFormat", "BoneworkWorld", "BoneworkAssets", "BoneworkRender", "BoneworkProfiling"],
            path: "Benchmarks/BoneworkBenchmarks"),
        // What the test targets share: paths to the repository and ../shared, example loaders,
        // the allocation probe, image measures. Not a product; it cannot use `@testable import`.
        .target(
            name: "BoneworkTestSupport", dependencies: ["BoneworkFormat", "BoneworkImage", "BoneworkProfiling"],
            path: "Tests/BoneworkTestSupport"),
        .testTarget(
            name: "BoneworkFormatTests",
            dependencies: ["BoneworkFormat", "BoneworkAssets", "BoneworkProfiling", "BoneworkTestSupport"]),
        .testTarget(
            name: "BoneworkWorldTests",
            dependencies: [
                "BoneworkWorld", "BoneworkFormat", "BoneworkProfiling", "BoneworkTriggers", "BoneworkConformance",
                "BoneworkTestSupport",
            ]),
        .testTarget(
            name: "BoneworkRenderTests",
            dependencies: [
                "BoneworkRender", "BoneworkWorld", "BoneworkFormat", "BoneworkTestSupport", "BoneworkFuzzPlay",
            ]),
        .testTarget(name: "BoneworkTests", dependencies: ["Bonework", "BoneworkExamples", "BoneworkTestSupport"]),
        .testTarget(name: "BoneworkCLITests", dependencies: ["bonework", "BoneworkTestSupport", "CAllocationCounter"]),
        .testTarget(
            name: "BoneworkPlatformTests",
            dependencies: ["BoneworkImage", "CGLFW", "CGL", "CEGL", "BoneworkTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// Vector width: on an x86-64 host with AVX2 and FMA (the Haswell feature set) every Swift target
// is compiled for that feature set, so 4-lane double and 8-lane float vectors are one register
// and one instruction. The binaries then need such a CPU; `BONEWORK_PORTABLE=1` builds for
// baseline x86-64. Swift never fuses a multiply and an add on its own, so results are the same
// bits either way (the lane tests and reference traces check it on every build).
let hostHasHaswellFeatures: Bool = {
    #if arch(x86_64)
        guard ProcessInfo.processInfo.environment["BONEWORK_PORTABLE"] == nil,
            let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let flags = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("flags") })
        else { return false }
        let present = Set(flags.split(separator: " ").map(String.init))
        return ["avx", "avx2", "fma", "bmi1", "bmi2", "f16c", "movbe", "abm", "popcnt", "sse4_2", "xsave"]
            .allSatisfy(present.contains)
    #else
        return false
    #endif
}()
if hostHasHaswellFeatures {
    for target in package.targets where target.type != .system {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-target-cpu", "haswell"])]
    }
}
