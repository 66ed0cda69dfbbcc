import BoneworkFormat
import BoneworkWorld

/// Composed outfits for a crowd of a skeleton whose skins come in groups, the way mix-and-match
/// exports name them (`group/item`: `eyes/violet`, `hair/brown`, ...): an outfit is the base
/// skin (`skin-base` when the data has one) plus one item of each group, drawn with a seeded
/// generator. Groups named `full-skins` (complete outfits of their own) are left out.
public enum CrowdOutfits {
    /// What `random` refuses.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// The data's skins form no `group/item` groups to compose from.
        case noSkinGroups(skeleton: String)
        /// The groups allow fewer distinct outfits than were asked for.
        case tooFewCombinations(skeleton: String, asked: Int, possible: Int)

        /// What the skeleton lacks for the outfits asked, on one line.
        public var description: String {
            switch self {
            case .noSkinGroups(let skeleton):
                return "\(skeleton) has no skin groups to compose outfits from (skins named group/item)"
            case .tooFewCombinations(let skeleton, let asked, let possible):
                return "\(skeleton): \(asked) distinct outfits asked for, its skin groups allow \(possible)"
            }
        }
    }

    /// The skin groups of `data`: group name -> its skins' names, groups in the order their
    /// first skin appears.
    public static func groups(_ data: SkeletonData) -> [(group: String, skins: [String])] {
        var order: [String] = []
        var members: [String: [String]] = [:]
        for skin in data.skins {
            guard let slash = skin.name.firstIndex(of: "/") else { continue }
            let group = String(skin.name[..<slash])
            guard group != "full-skins" else { continue }
            if members[group] == nil { order.append(group) }
            members[group, default: []].append(skin.name)
        }
        return order.map { ($0, members[$0]!) }
    }

    /// `count` distinct outfits (lists of skin names, in composition order) drawn with `seed`.
    public static func random(_ data: SkeletonData, count: Int, seed: UInt64) throws(Problem) -> [[String]] {
        let groups = groups(data)
        guard !groups.isEmpty else { throw .noSkinGroups(skeleton: data.file) }
        var possible = 1
        for g in groups {
            let (product, overflow) = possible.multipliedReportingOverflow(by: g.skins.count)
            possible = overflow ? Int.max : product
        }
        guard count <= possible else {
            throw .tooFewCombinations(skeleton: data.file, asked: count, possible: possible)
        }
        let base = data.findSkinIndex("skin-base") != nil ? ["skin-base"] : []
        var random = SplitMix64(seed: seed)
        var seen = Set<[String]>()
        var outfits: [[String]] = []
        // Draws until `count` distinct ones; when the asked count is close to what is possible,
        // the draws that repeat an outfit are bounded by enumerating the rest in order.
        var draws = 0
        while outfits.count < count && draws < count * 64 {
            draws += 1
            let outfit = base + groups.map { $0.skins[Int(random.next() % UInt64($0.skins.count))] }
            if seen.insert(outfit).inserted { outfits.append(outfit) }
        }
        var index = 0
        while outfits.count < count {
            var rest = index
            let outfit =
                base
                + groups.map { g -> String in
                    defer { rest /= g.skins.count }
                    return g.skins[rest % g.skins.count]
                }
            index += 1
            if seen.insert(outfit).inserted { outfits.append(outfit) }
        }
        return outfits
    }
}

extension CrowdOutfits {
    /// The outfit of `outfits` that costs the most per frame by what it asks of the systems:
    /// the most update steps (bones and constraints posed), then the most world vertex floats
    /// of the attachments it shows in the setup pose. The first one on a tie.
    public static func mostExpensive(_ data: SkeletonData, _ outfits: [[String]]) -> [String] {
        let rig = CompiledSkeleton(data)
        var best: (steps: Int, floats: Int, outfit: [String])?
        for outfit in outfits {
            guard let plan = try? rig.plan(parts: outfit.compactMap { data.findSkinIndex($0).map(Int32.init) }) else {
                continue
            }
            let steps = rig.describeProgram(plan: plan).count
            var floats = 0
            for (s, slot) in data.slots.enumerated() where slot.attachmentName >= 0 {
                let a = rig.attachment(plan: plan, slot: Int32(s), name: slot.attachmentName)
                guard a >= 0 else { continue }
                let attachment = data.attachments[Int(a)]
                // A region's four corners; a mesh's world vertices.
                floats += attachment.kind == .region ? 8 : Int(attachment.worldVerticesLength)
            }
            if best.map({ (steps, floats) > ($0.steps, $0.floats) }) ?? true { best = (steps, floats, outfit) }
        }
        return best?.outfit ?? outfits.first ?? []
    }
}
