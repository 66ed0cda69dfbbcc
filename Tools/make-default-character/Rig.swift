import Foundation

/// A 2-D affine transform: x' = a x + b y + tx, y' = c x + d y + ty (y up).
struct Affine {
    var a = 1.0
    var b = 0.0
    var c = 0.0
    var d = 1.0
    var tx = 0.0
    var ty = 0.0

    func apply(_ x: Double, _ y: Double) -> (Double, Double) {
        (a * x + b * y + tx, c * x + d * y + ty)
    }

    func inverseApply(_ x: Double, _ y: Double) -> (Double, Double) {
        let det = a * d - b * c
        let dx = x - tx
        let dy = y - ty
        return ((d * dx - b * dy) / det, (a * dy - c * dx) / det)
    }

    /// The direction of the local x axis, in degrees.
    var rotation: Double { atan2(c, a) * 180 / .pi }
}

func degreesToRadians(_ degrees: Double) -> Double { degrees * .pi / 180 }

/// Rounds to the two decimals the skeleton file keeps, so that geometry derived from the setup
/// pose here matches what a reader computes from the written numbers.
func r2(_ value: Double) -> Double { Double(Num.format(value, decimals: 2)) ?? value }

struct BoneDef {
    var name: String
    var parent: String?
    var length = 0.0
    var rotation = 0.0
    var x = 0.0
    var y = 0.0
    /// "normal" or "noRotationOrReflection" (the only modes this rig uses).
    var inherit = "normal"
    var color: String?
    var icon: String?
}

struct SlotDef {
    var name: String
    var bone: String
    var attachment: String?
    var color: String?
}

/// A region attachment: which image, and its centre / rotation in the bone's frame.
struct RegionDef {
    var slot: String
    /// The name slots and timelines use.
    var key: String
    /// The atlas region (the attachment's name when it differs from `key`).
    var region: String
    var x: Double
    var y: Double
    var rotation: Double
    var width: Int
    var height: Int
}

/// A weighted mesh attachment.
struct MeshDef {
    var slot: String
    var key: String
    var region: String
    var uvs: [Double]
    var triangles: [Int]
    /// Per vertex: (bone index, x, y in that bone's setup frame, weight) for each influence.
    var influences: [[(bone: Int, x: Double, y: Double, weight: Double)]]
    var hull: Int
    var edges: [Int]
    var width: Int
    var height: Int
    /// Setup-pose world positions, for the skeleton bounds.
    var worldPositions: [(Double, Double)]
}

enum AttachmentDef {
    case region(RegionDef)
    case mesh(MeshDef)

    var slot: String {
        switch self {
        case .region(let r): return r.slot
        case .mesh(let m): return m.slot
        }
    }
}

struct SkinDef {
    var name: String
    var attachments: [AttachmentDef]
}

struct IKDef {
    var name: String
    var bones: [String]
    var target: String
    var bendPositive: Bool
}

/// The character's bones, slots, constraints and skins, laid out from the art's sizes.
struct Rig {
    var bones: [BoneDef] = []
    var slots: [SlotDef] = []
    var ik: [IKDef] = []
    var skins: [SkinDef] = []
    private(set) var world: [String: Affine] = [:]

    // Setup-pose measurements (world units are atlas pixels, y up, feet on y = 0).
    static let hipY = 122.0
    static let thighLength = 50.0
    static let shinLength = 50.0
    static let ankleY = 16.0
    static let backTint = "b4b4b4ff"

    func boneIndex(_ name: String) -> Int { bones.firstIndex { $0.name == name } ?? -1 }

    init(parts: [Part], teams: [TeamColors]) {
        let part = Dictionary(parts.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        buildBones()
        computeWorld()
        buildSlots()
        ik = [
            IKDef(
                name: "back-leg-ik", bones: ["back-thigh", "back-shin"], target: "back-foot-target", bendPositive: false
            ),
            IKDef(
                name: "front-leg-ik", bones: ["front-thigh", "front-shin"], target: "front-foot-target",
                bendPositive: false),
        ]

        var shared: [AttachmentDef] = []
        for side in ["back", "front"] {
            shared.append(.region(alongBone("\(side)-lower-arm", "lower-arm", part["lower-arm"]!)))
            shared.append(.region(alongBone("\(side)-hand", "hand", part["hand"]!)))
            shared.append(.region(alongBone("\(side)-shin", "shin", part["shin"]!)))
            shared.append(.region(alongBone("\(side)-foot", "foot", part["foot"]!)))
        }
        // Parts on bones that point up (world 90 degrees) stand upright at -90 in the bone's frame.
        let headAt = (x: 40.0, y: -2.0)
        shared.append(.region(placed("head", "head", part["head"]!, at: headAt, rotation: -90)))
        // Eyes sit on the visor: 17 px right of and 1 px above the head image's anchor.
        let eyes = rotate(17, 1, by: -90)
        let eyesAt = (x: headAt.x + eyes.0, y: headAt.y + eyes.1)
        shared.append(.region(placed("eyes", "eyes", part["eyes"]!, at: eyesAt, rotation: -90)))
        shared.append(.region(placed("eyes", "eyes-closed", part["eyes-closed"]!, at: eyesAt, rotation: -90)))
        shared.append(.region(placed("antenna", "antenna", part["antenna"]!, at: (0, 0), rotation: -90)))
        shared.append(.region(placed("neck", "neck", part["neck"]!, at: (8, 0), rotation: -90)))
        shared.append(.region(placed("pelvis", "pelvis", part["pelvis"]!, at: (2, -16), rotation: 0)))
        skins.append(SkinDef(name: "default", attachments: sortedBySlot(shared)))

        for team in teams {
            var own: [AttachmentDef] = []
            for side in ["back", "front"] {
                let arm = part["\(team.name)/upper-arm"]!
                own.append(.region(alongBone("\(side)-upper-arm", "upper-arm", arm)))
                let thigh = part["\(team.name)/thigh"]!
                own.append(.region(alongBone("\(side)-thigh", "thigh", thigh)))
            }
            own.append(.mesh(bodyMesh(part["\(team.name)/body"]!)))
            skins.append(SkinDef(name: team.name, attachments: sortedBySlot(own)))
        }
    }

    private mutating func buildBones() {
        func bone(
            _ name: String, _ parent: String?, length: Double = 0, rotation: Double = 0, x: Double = 0, y: Double = 0
        ) -> BoneDef {
            BoneDef(name: name, parent: parent, length: length, rotation: r2(rotation), x: r2(x), y: r2(y))
        }
        bones.append(bone("root", nil))
        bones.append(bone("hip", "root", y: Rig.hipY))
        bones.append(bone("torso", "hip", length: 62, rotation: 90, y: 4))
        bones.append(bone("neck", "torso", length: 16, x: 62))
        bones.append(bone("head", "neck", length: 70, x: 16))
        bones.append(bone("antenna", "head", length: 30, x: 76, y: 8))
        // Arms hang from the shoulders (torso frame: +x up the spine, +y towards the back).
        for (side, shoulderY, upper) in [("back", 10.0, 166.0), ("front", 2.0, 172.0)] {
            bones.append(bone("\(side)-upper-arm", "torso", length: 38, rotation: upper, x: 54, y: shoulderY))
            bones.append(bone("\(side)-lower-arm", "\(side)-upper-arm", length: 34, rotation: 24, x: 38))
            bones.append(bone("\(side)-hand", "\(side)-lower-arm", length: 12, rotation: -6, x: 34))
        }
        // Legs: thigh and shin bent at the knee so that the ankle lands on the foot target.
        for (side, hipX, footX) in [("back", -5.0, -8.0), ("front", 5.0, 6.0)] {
            let hipJoint = (x: hipX, y: Rig.hipY - 10)
            let (thighRotation, shinRotation) = Rig.solveLeg(
                from: hipJoint, to: (footX, Rig.ankleY), thigh: Rig.thighLength, shin: Rig.shinLength)
            bones.append(
                bone("\(side)-thigh", "hip", length: Rig.thighLength, rotation: thighRotation, x: hipX, y: -10))
            bones.append(
                bone(
                    "\(side)-shin", "\(side)-thigh", length: Rig.shinLength, rotation: shinRotation, x: Rig.thighLength)
            )
            var foot = bone("\(side)-foot", "\(side)-shin", length: 24, x: Rig.shinLength)
            foot.inherit = "noRotationOrReflection"
            bones.append(foot)
        }
        for (side, footX) in [("back", -8.0), ("front", 6.0)] {
            var target = bone("\(side)-foot-target", "root", x: footX, y: Rig.ankleY)
            target.color = "ff3f00ff"
            target.icon = "ik"
            bones.append(target)
        }
    }

    /// Thigh world rotation and shin rotation relative to the thigh (degrees) for a leg from `from`
    /// to `to` with the knee bent forwards (towards +x).
    static func solveLeg(from: (x: Double, y: Double), to: (Double, Double), thigh: Double, shin: Double)
        -> (Double, Double)
    {
        let dx = to.0 - from.x
        let dy = to.1 - from.y
        let distance = min((dx * dx + dy * dy).squareRoot(), thigh + shin - 0.001)
        let toTarget = atan2(dy, dx)
        let hipAngle = acos((thigh * thigh + distance * distance - shin * shin) / (2 * thigh * distance))
        let kneeAngle = acos((thigh * thigh + shin * shin - distance * distance) / (2 * thigh * shin))
        return ((toTarget + hipAngle) * 180 / .pi, -(180 - kneeAngle * 180 / .pi))
    }

    /// Setup-pose world transforms of every bone.
    private mutating func computeWorld() {
        for bone in bones {
            let rx = degreesToRadians(bone.rotation)
            let ry = degreesToRadians(bone.rotation + 90)
            let local = Affine(a: cos(rx), b: cos(ry), c: sin(rx), d: sin(ry), tx: bone.x, ty: bone.y)
            guard let parentName = bone.parent, let parent = world[parentName] else {
                world[bone.name] = local
                continue
            }
            var result = Affine()
            (result.tx, result.ty) = parent.apply(bone.x, bone.y)
            if bone.inherit == "noRotationOrReflection" {
                // Keeps its own rotation in world space (the rig has no scale).
                result.a = local.a
                result.b = local.b
                result.c = local.c
                result.d = local.d
            } else {
                result.a = parent.a * local.a + parent.b * local.c
                result.b = parent.a * local.b + parent.b * local.d
                result.c = parent.c * local.a + parent.d * local.c
                result.d = parent.c * local.b + parent.d * local.d
            }
            world[bone.name] = result
        }
    }

    private mutating func buildSlots() {
        func slot(_ name: String, _ bone: String, _ attachment: String?, tint: Bool = false) -> SlotDef {
            SlotDef(name: name, bone: bone, attachment: attachment, color: tint ? Rig.backTint : nil)
        }
        slots = [
            slot("back-upper-arm", "back-upper-arm", "upper-arm", tint: true),
            slot("back-lower-arm", "back-lower-arm", "lower-arm", tint: true),
            slot("back-hand", "back-hand", "hand", tint: true),
            slot("back-thigh", "back-thigh", "thigh", tint: true),
            slot("back-shin", "back-shin", "shin", tint: true),
            slot("back-foot", "back-foot", "foot", tint: true),
            slot("front-thigh", "front-thigh", "thigh"),
            slot("front-shin", "front-shin", "shin"),
            slot("front-foot", "front-foot", "foot"),
            slot("neck", "neck", "neck"),
            slot("body", "torso", "body"),
            slot("pelvis", "hip", "pelvis"),
            slot("antenna", "antenna", "antenna"),
            slot("head", "head", "head"),
            slot("eyes", "head", "eyes"),
            slot("front-upper-arm", "front-upper-arm", "upper-arm"),
            slot("front-lower-arm", "front-lower-arm", "lower-arm"),
            slot("front-hand", "front-hand", "hand"),
        ]
    }

    private func sortedBySlot(_ attachments: [AttachmentDef]) -> [AttachmentDef] {
        let order = Dictionary(slots.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        return attachments.enumerated().sorted {
            let a = order[$0.element.slot] ?? Int.max
            let b = order[$1.element.slot] ?? Int.max
            return a != b ? a < b : $0.offset < $1.offset
        }.map(\.element)
    }

    private func rotate(_ x: Double, _ y: Double, by degrees: Double) -> (Double, Double) {
        let r = degreesToRadians(degrees)
        return (x * cos(r) - y * sin(r), x * sin(r) + y * cos(r))
    }

    /// A limb image lying along its bone with its anchor pixel on the bone's origin.
    private func alongBone(_ slot: String, _ key: String, _ part: Part) -> RegionDef {
        placed(slot, key, part, at: (0, 0), rotation: 0)
    }

    /// An image whose anchor pixel sits at `at` in the slot bone's frame, turned by `rotation`.
    private func placed(_ slot: String, _ key: String, _ part: Part, at: (x: Double, y: Double), rotation: Double)
        -> RegionDef
    {
        let offset = rotate(Double(part.width) / 2 - part.anchorX, part.anchorY - Double(part.height) / 2, by: rotation)
        return RegionDef(
            slot: slot, key: key, region: part.name, x: r2(at.x + offset.0), y: r2(at.y + offset.1), rotation: rotation,
            width: part.width, height: part.height)
    }

    /// The torso shell as a 3 x 5 grid mesh weighted to hip, torso and neck, so that the body bends
    /// with the spine and stretches towards the head.
    private func bodyMesh(_ part: Part) -> MeshDef {
        let columns = [0.0, 0.5, 1.0]
        let rows = [0.0, 0.25, 0.5, 0.75, 1.0]
        // Per row (top to bottom): weights of neck, torso, hip.
        let rowWeights: [[(String, Double)]] = [
            [("torso", 0.4), ("neck", 0.6)],
            [("torso", 0.85), ("neck", 0.15)],
            [("torso", 1)],
            [("hip", 0.5), ("torso", 0.5)],
            [("hip", 1)],
        ]
        let center = (x: 0.0, y: Rig.hipY + 24)
        let width = Double(part.width)
        let height = Double(part.height)
        // Hull first, clockwise from the top-left corner, then the inner column.
        var grid: [(column: Int, row: Int)] = []
        for c in 0..<3 { grid.append((c, 0)) }
        for r in 1..<5 { grid.append((2, r)) }
        for c in stride(from: 1, through: 0, by: -1) { grid.append((c, 4)) }
        for r in stride(from: 3, through: 1, by: -1) { grid.append((0, r)) }
        let hull = grid.count
        for r in 1..<4 { grid.append((1, r)) }
        func vertex(_ column: Int, _ row: Int) -> Int { grid.firstIndex { $0.column == column && $0.row == row } ?? 0 }

        var uvs: [Double] = []
        var influences: [[(bone: Int, x: Double, y: Double, weight: Double)]] = []
        var positions: [(Double, Double)] = []
        for (column, row) in grid {
            let u = columns[column]
            let v = rows[row]
            uvs += [u, v]
            let wx = center.x + (u - 0.5) * width
            let wy = center.y + (0.5 - v) * height
            positions.append((wx, wy))
            var list: [(bone: Int, x: Double, y: Double, weight: Double)] = []
            for (name, weight) in rowWeights[row] {
                let (lx, ly) = world[name]!.inverseApply(wx, wy)
                list.append((boneIndex(name), lx, ly, weight))
            }
            influences.append(list.sorted { $0.bone < $1.bone })
        }
        var triangles: [Int] = []
        for row in 0..<4 {
            for column in 0..<2 {
                let tl = vertex(column, row)
                let tr = vertex(column + 1, row)
                let bl = vertex(column, row + 1)
                let br = vertex(column + 1, row + 1)
                triangles += [tl, bl, tr, tr, bl, br]
            }
        }
        var edges: [Int] = []
        for i in 0..<hull { edges += [i * 2, ((i + 1) % hull) * 2] }
        return MeshDef(
            slot: "body", key: "body", region: part.name, uvs: uvs, triangles: triangles, influences: influences,
            hull: hull,
            edges: edges, width: part.width, height: part.height, worldPositions: positions)
    }

    /// World-space corners of a region attachment in the setup pose.
    func corners(_ region: RegionDef, bone: String) -> [(Double, Double)] {
        guard let w = world[bone] else { return [] }
        let hw = Double(region.width) / 2
        let hh = Double(region.height) / 2
        return [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)].map { corner in
            let (cx, cy) = rotate(corner.0, corner.1, by: region.rotation)
            return w.apply(region.x + cx, region.y + cy)
        }
    }

    /// The setup-pose bounding box over the attachments of the given skins (x, y, width, height).
    func bounds(skins names: [String]) -> (Double, Double, Double, Double) {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for skin in skins where names.contains(skin.name) {
            for attachment in skin.attachments {
                guard let slot = slots.first(where: { $0.name == attachment.slot }) else { continue }
                var points: [(Double, Double)]
                switch attachment {
                case .region(let r):
                    guard slot.attachment == r.key else { continue }
                    points = corners(r, bone: slot.bone)
                case .mesh(let m):
                    points = m.worldPositions
                }
                for (x, y) in points {
                    minX = min(minX, x)
                    minY = min(minY, y)
                    maxX = max(maxX, x)
                    maxY = max(maxY, y)
                }
            }
        }
        return (minX, minY, maxX - minX, maxY - minY)
    }
}
