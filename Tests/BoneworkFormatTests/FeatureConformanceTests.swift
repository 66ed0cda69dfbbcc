import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkFormat

/// Every example skeleton loads with its atlas, and its counts agree with the reference counts.
@Suite struct FeatureConformanceTests {
    @Test func everyExampleSkeletonIsListed() throws {
        let files = TestPaths.skeletonFiles()
        let features = try TestPaths.features()
        #expect(files.count == 52, "expected the 52 example skeleton files, found \(files.count)")
        #expect(Set(files) == Set(features.keys), "example files and features.json disagree")
    }

    @Test(arguments: TestPaths.skeletonFiles())
    func countsMatchReference(_ file: String) throws {
        let expected = try #require(try TestPaths.features()[file], "\(file) has no reference counts")
        let atlasPath = try #require(TestPaths.atlasPath(forSkeleton: file), "\(file): no atlas found")
        let atlas = try AtlasReader.read(file: atlasPath)
        let data = try SkeletonLoader.load(
            file: TestPaths.example(file), atlas: atlas)
        let ours = SkeletonFeatures(data)
        for key in SkeletonFeatures.requiredKeys {
            let reference = try #require(expected[key], "\(file): reference lacks \(key)")
            #expect(ours[key] == reference, "\(file): \(key) expected \(reference), found \(ours[key] ?? -1)")
        }
        // The remaining keys count the same things more finely; they must agree too.
        for (key, value) in ours.counts where !SkeletonFeatures.requiredKeys.contains(key) {
            if let reference = expected[key] {
                #expect(value == reference, "\(file): \(key) expected \(reference), found \(value)")
            }
        }
    }
}
