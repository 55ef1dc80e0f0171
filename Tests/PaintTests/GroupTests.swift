import Compute
import Events
import Foundation
import Geometry
import Journal
import Kernels
import Paint
import PNGFile
import Testing
import TestSupport

/// Groups: how they compose (pass-through and isolated, as Krita 5.1 does, checked pixel by
/// pixel and against Krita's own flattening of a grouped file), and what their commands do to
/// the stack, each undone and redone.
@Suite struct GroupTests {
    private let size = Size(width: 4, height: 2)

    /// A layer of the test canvas filled with one premultiplied pixel.
    private func layer(_ name: String, _ pixel: UInt32, opacity: Double = 1, mode: BlendMode = .normal, visible: Bool = true,
                       depth: Int = 0) -> DocumentImage.LayerImage {
        DocumentImage.LayerImage(attributes: LayerAttributes(name: name, visible: visible, opacity: opacity, mode: mode, depth: depth),
                                 bounds: Rect(size: size), pixels: Array(repeating: pixel, count: size.area))
    }

    private func group(_ name: String, _ isolation: Isolation, opacity: Double = 1, mode: BlendMode = .normal, visible: Bool = true,
                       depth: Int = 0) -> DocumentImage.LayerImage {
        DocumentImage.LayerImage(attributes: LayerAttributes(name: name, visible: visible, opacity: opacity, mode: mode,
                                                             group: isolation, depth: depth),
                                 bounds: Rect(x: 0, y: 0, width: 0, height: 0), pixels: [])
    }

    /// What `layers` show over `background` with each entry current in turn (the compose reads
    /// the stack otherwise for each: caches below, levels of isolated groups, layers above):
    /// every one must show the same, which is returned.
    private func shown(_ layers: [DocumentImage.LayerImage], background: Color = .white,
                       sourceLocation: SourceLocation = #_sourceLocation) -> UInt32 {
        var pictures: [UInt32] = []
        for current in layers.indices {
            let s = Session(size: size, background: background, compute: ComputeContext(threads: 1))
            s.load(DocumentImage(size: size, background: background, layers: layers, current: current))
            let shot = s.snapshot()
            #expect(Set(shot.pixels).count == 1, "a flat picture", sourceLocation: sourceLocation)
            pictures.append(shot[0, 0])
        }
        #expect(Set(pictures).count == 1, "the same whichever is current: \(pictures.map { String($0, radix: 16) })",
                sourceLocation: sourceLocation)
        return pictures[0]
    }

    private static let grey = Color(r: 64, g: 128, b: 192)

    @Test func passThroughBlendsEachChildOntoWhatIsBelowTheGroup() {
        // Multiply of grey 128 onto (64, 128, 192): (32, 64, 96).
        let p = shown([layer("child", 0xFF80_8080, mode: .multiply, depth: 1), group("g", .passThrough)], background: Self.grey)
        #expect(p == 0xFF20_4060, "\(String(p, radix: 16))")
    }

    @Test func isolatedComposesChildrenOntoTransparencyFirst() {
        // Multiply onto nothing is the child itself; the group then normal onto the background.
        let p = shown([layer("child", 0xFF80_8080, mode: .multiply, depth: 1), group("g", .isolated)], background: Self.grey)
        #expect(p == 0xFF80_8080, "\(String(p, radix: 16))")
    }

    @Test func passThroughOpacityMultipliesEachChildsAsKritaDoesAndItsModeIsNotUsed() {
        // Krita: ⌊153 × 128 / 255⌋ = 76 (rounded it would be 77): red at 76 over white.
        for mode in [BlendMode.normal, .difference] {
            let p = shown([layer("red", 0xFFFF_0000, opacity: 0.6, depth: 1), group("g", .passThrough, opacity: 0.5, mode: mode)])
            #expect(p == 0xFFFF_B3B3, "\(mode): \(String(p, radix: 16))")
        }
        // Isolated, the child at 153 is made first, then the group at 128 scales it: 77.
        let isolated = shown([layer("red", 0xFFFF_0000, opacity: 0.6, depth: 1), group("g", .isolated, opacity: 0.5)])
        #expect(isolated == 0xFFFF_B2B2, "\(String(isolated, radix: 16))")
    }

    @Test func isolatedGroupBlendsWithItsOwnModeAndOpacity() {
        for opacity in [1.0, 0.5] {
            var want: UInt32 = 0xFF00_0000 | Self.grey.pixel
            var red: UInt32 = 0xFFFF_0000
            LayerBlend.blendRow(&red, onto: &want, count: 1, opacity: UInt32((opacity * 255).rounded()), mode: .multiply)
            let p = shown([layer("red", 0xFFFF_0000, depth: 1), group("g", .isolated, opacity: opacity, mode: .multiply)], background: Self.grey)
            #expect(p == want, "opacity \(opacity): \(String(p, radix: 16)), not \(String(want, radix: 16))")
        }
    }

    @Test func aHiddenGroupHidesWhatItHoldsAndNestedGroupsCompose() {
        for isolation in [Isolation.passThrough, .isolated] {
            let p = shown([layer("red", 0xFFFF_0000, depth: 1), group("g", isolation, visible: false)], background: Self.grey)
            #expect(p == 0xFF00_0000 | Self.grey.pixel, "\(isolation)")
        }
        // An isolated group in a pass-through one at 0.5: the inner group's opacity is merged (⌊255 × 128 / 255⌋).
        let nested = shown([layer("red", 0xFFFF_0000, depth: 2), group("inner", .isolated, depth: 1), layer("top", 0, depth: 1),
                            group("outer", .passThrough, opacity: 0.5)])
        #expect(nested == 0xFFFF_7F7F, "\(String(nested, radix: 16))")
    }

    /// The grouped file `Tests/Tools/krita_groups.py` wrote as Krita lays one out, opened as a
    /// document, shows within 3 levels of what Krita 5.1 flattened it to (`groups-krita.png`,
    /// 128x96) whichever entry is current; the same file with its groups read as pass-through
    /// (the old reader's flattening did about that) is far from it.
    @Test func matchesKrita() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/krita")
        let (image, notes) = try DocumentFile.read(ora: folder.appendingPathComponent("groups.ora").path, maxSide: 1024)
        #expect(notes.isEmpty, "\(notes)")
        #expect(image.layers.filter { $0.attributes.group != nil }.count == 4 && image.layers.map(\.attributes.depth).max() == 2)
        let krita = try PNGImage.read(from: folder.appendingPathComponent("groups-krita.png").path).pixels.map { $0 | 0xFF00_0000 }
        func picture(_ image: DocumentImage) -> [UInt32] {
            let s = Session(size: image.size, background: image.background, compute: ComputeContext(threads: 2))
            s.load(image)
            return s.snapshot().pixels
        }
        for current in [0, image.current, image.layers.count - 1, 3, 7] {
            var each = image
            each.current = current
            let worst = largestChannelDifference(picture(each), krita)
            #expect(worst <= 3, "current \(current): \(worst) levels from Krita")
        }
        var passing = image
        for i in passing.layers.indices where passing.layers[i].attributes.group != nil { passing.layers[i].attributes.group = .passThrough }
        #expect(largestChannelDifference(picture(passing), krita) > 20)
    }

    // MARK: - Commands

    private func play(_ events: [String]) throws -> Session {
        let path = try ScratchFolder.make("groups") + "/r.jsonl"
        let lines = [#"{"quicksilver": 1, "width": 40, "height": 30}"#] + events.enumerated().map { i, e in
            "{\"t\": \(Double(i) / 10), " + e + "}"
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        return try Playback.load(path, compute: ComputeContext(threads: 1)).session
    }

    private func layer(_ action: String, _ extra: String = "") -> String { "\"type\": \"layer\", \"action\": \"\(action)\"" + extra }

    /// The stack top first, as the panel lists it: each entry's name indented by its depth, a
    /// group's ending in "/", the current one starred.
    private func outline(_ s: Session) -> String {
        let d = s.document
        return d.layers.indices.reversed().map { i in
            let a = d.layers[i].attributes
            return String(repeating: " ", count: a.depth) + a.name + (a.group != nil ? "/" : "") + (i == d.current ? "*" : "")
        }.joined(separator: ",")
    }

    @Test func groupIntoOutUngroupAndMovesKeepGroupsWholeAndEachUndoes() throws {
        // Each command, what the stack is then, and whether it is an undo step (a select is not; nor
        // is a command that cannot apply).
        let steps: [(String, String, Bool)] = [
            (layer("group"), "Group 1/, L3*,L2,L1", true),
            (layer("select", ", \"index\": 1"), "Group 1/, L3,L2*,L1", false),
            (layer("into"), "Group 1/, L3, L2*,L1", true),
            (layer("down"), "Group 1/, L3, L2*,L1", false),                  // the bottom of its group: nothing
            (layer("out"), "Group 1/, L3,L2*,L1", true),
            (layer("select", ", \"index\": 3"), "Group 1/*, L3,L2,L1", false),
            (layer("down", ", \"by\": 2"), "L2,L1,Group 1/*, L3", true),     // a group moves with what it holds
            (layer("set", ", \"isolated\": true, \"name\": \"G\""), "L2,L1,G/*, L3", true),
            (layer("new", ", \"name\": \"L4\""), "L2,L1,L4*,G/, L3", true),
            (layer("merge"), "L2,L1,L4*,G/, L3", false),                     // not onto a group
            (layer("select", ", \"index\": 1"), "L2,L1,L4,G/*, L3", false),
            (layer("ungroup"), "L2,L1,L4,L3*", true),
        ]
        let base = [layer("new", ", \"name\": \"L1\""), layer("select", ", \"index\": 0"), layer("delete"), layer("new", ", \"name\": \"L2\""),
                    layer("new", ", \"name\": \"L3\"")]
        let start = try play(base)
        #expect(outline(start) == "L3*,L2,L1")
        func bare(_ outline: String) -> String { outline.replacingOccurrences(of: "*", with: "") }
        // The stack after each undo step, the start first.
        var states = [bare(outline(start))]
        for k in steps.indices {
            let s = try play(base + steps[...k].map(\.0))
            #expect(outline(s) == steps[k].1, "after \(steps[k].0)")
            if steps[k].2 { states.append(bare(outline(s))) }
        }
        // Undone one by one back to the start, then redone to the end.
        let all = base + steps.map(\.0), undo = "\"type\": \"undo\"", redo = "\"type\": \"redo\""
        for back in 1..<states.count {
            let s = try play(all + Array(repeating: undo, count: back))
            #expect(bare(outline(s)) == states[states.count - 1 - back], "\(back) undone")
        }
        let undone = states.count - 1
        let redone = try play(all + Array(repeating: undo, count: undone) + Array(repeating: redo, count: undone))
        #expect(bare(outline(redone)) == states.last)
    }

    /// Groups nest 64 deep at most: a group or a move into one past that is not made.
    @Test func groupsNestNoDeeperThanTheLimit() throws {
        let s = try play(Array(repeating: layer("group"), count: 70))
        #expect(s.document.layers.count == 65 && s.document.layers.map(\.attributes.depth).max() == DocumentLimits.maxDepth)
    }

    @Test func aStrokeOnAGroupDrawsNothingAndDeletingAGroupTakesWhatItHolds() throws {
        let stroke = [#""type": "down", "x": 2, "y": 15"#, #""type": "up", "x": 38, "y": 15"#]
        let s = try play([layer("group")] + [layer("select", ", \"index\": 1")] + stroke)
        #expect(s.document.layers.allSatisfy { $0.pixels.isEmpty })
        #expect(s.snapshot().pixels.allSatisfy { $0 == 0xFFFF_FFFF })
        let d = try play([layer("new"), layer("group"), layer("select", ", \"index\": 2"), layer("delete")])
        #expect(outline(d) == "Layer 1*")
        let undone = try play([layer("new"), layer("group"), layer("select", ", \"index\": 2"), layer("delete"), "\"type\": \"undo\""])
        #expect(outline(undone) == "Group 1/*, Layer 2,Layer 1")
    }
}
