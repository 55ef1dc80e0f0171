import CDeflate
import Compute
import Geometry
import Kernels
import Paint

/// A compacted journal's undo history, the file beside its snapshot that its header's
/// `history` names (`<journal>.history-N-G.qsh`): the undo and redo steps the document had
/// when the snapshot was taken (`HistoryImage`), so that undo reaches as far back after a
/// compaction as before it, in the window and in every replay.
///
/// The format, all integers little-endian (`u32`, `u64`; `i64` two's complement):
///
///     "QSHISTRY"  u32 version (1; 2 where a layer is a group or in one; 3 where a step moves the
///         frame, its attributes as version 2's)  u64 the file's length
///     u32 layers of the stack, each: u32 tiles that exist, each its key (in order)
///     u32 layers only the history holds, each: attributes, u32 tiles, each: key, tile
///     u32 undo steps (oldest first), steps; u32 redo steps (the last redone first), steps
///     i64 the undo memory counted, i64 the next layer number
///     u32 CRC-32 of every byte before it
///
///     step: u32 current layer to go back to, u32 changes, each: u8 kind, then
///         1 tiles: u32 layer, u32 count, each: key, tile or none
///         2 inserted, 3 removed: u32 layer, u32 at    4 moved: u32 from, u32 to
///         5 attributes: u32 layer, attributes    6 frame (version 3): i64 x, i64 y, u32 width, u32 height
///     attributes: string name, u8 visible, u64 opacity (IEEE 754 bits), string blend mode
///         (`svg:…`), u32 extra attributes, each: string name, string value; version 2 then
///         u8 group (0 none, 1 pass-through, 2 isolated), u32 depth
///     key: i64 column, i64 row (`TileKey`)    string: u32 length, UTF-8    tile: u8 0 none, 1 transparent, 2 deflated (u32 length, raw
///         DEFLATE of its 64x64 0xAARRGGBB premultiplied words, little-endian), 3 stored (16384 bytes)
///
/// Layers are numbered as `HistoryImage` numbers them. Written on the journal's queue, off
/// the frame loop; read on the parsing thread of `Playback`, as untrusted input: every count
/// is read against the bytes there are, the tiles against a memory limit, and `HistoryImage.check`
/// then makes sure every undo and redo it allows will find the stack as it expects.
public enum HistoryFile {
    /// Why a history file cannot be read, in a few words.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public init(message: String) { self.message = message }
        public var description: String { message }
    }

    enum TileKind: UInt8 { case none = 0, blank = 1, deflated = 2, stored = 3 }
    enum ChangeKind: UInt8 { case tiles = 1, inserted = 2, removed = 3, moved = 4, attributes = 5, frame = 6 }

    static let magic = Array("QSHISTRY".utf8)
    static let version = 1
    /// The version that keeps groups: written only where a layer is a group or in one, so that a
    /// history without them is the bytes it always was.
    static let groupsVersion = 2
    /// The version that keeps the frame's moves (its attributes as `groupsVersion`'s): written
    /// only where a step moves the frame.
    static let frameVersion = 3
    /// The columns and rows a tile may have: far beyond any canvas (2³⁰ pixels each way).
    static let keys = -(1 << 24)...(1 << 24)
    /// The extension of a history file's name.
    public static let fileExtension = "qsh"

    /// The file's bytes. Reads the tiles' pixels, which no one writes any more (see `HistoryImage`).
    public static func encode(_ image: HistoryImage) -> [UInt8] {
        var w = HistoryBytesWriter()
        defer { w.finish() }
        w.append(magic)
        let frames = movesTheFrame(image), groups = frames || usesGroups(image)
        w.u32(frames ? frameVersion : groups ? groupsVersion : version)
        w.u64(0)  // the length, set at the end
        w.u32(image.stackTiles.count)
        for set in image.stackTiles {
            w.u32(set.count)
            for key in set.keys { w.key(key) }
        }
        w.u32(image.layers.count)
        for entry in image.layers {
            attributes(entry.attributes, groups: groups, &w)
            w.u32(entry.tiles.count)
            for (key, tile) in entry.tiles {
                w.key(key)
                w.tile(tile)
            }
        }
        for steps in [image.undo, image.redo] {
            w.u32(steps.count)
            for step in steps { self.step(step, groups: groups, &w) }
        }
        w.i64(image.bytes)
        w.i64(image.nextNumber)
        var bytes = w.bytes
        withUnsafeBytes(of: UInt64(bytes.count + 4).littleEndian) { for (k, b) in $0.enumerated() { bytes[magic.count + 4 + k] = b } }
        let crc = bytes.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }
        withUnsafeBytes(of: crc.littleEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }

    private static func step(_ step: HistoryImage.Step, groups: Bool, _ w: inout HistoryBytesWriter) {
        w.u32(step.current)
        w.u32(step.changes.count)
        for change in step.changes {
            switch change {
            case .tiles(let layer, let keys, let tiles):
                w.u8(ChangeKind.tiles.rawValue)
                w.u32(layer)
                w.u32(keys.count)
                for (k, t) in zip(keys, tiles) {
                    w.key(k)
                    w.tile(t)
                }
            case .inserted(let layer, let at), .removed(let layer, let at):
                let kind: ChangeKind = if case .inserted = change { .inserted } else { .removed }
                w.u8(kind.rawValue)
                w.u32(layer)
                w.u32(at)
            case .moved(let from, let to):
                w.u8(ChangeKind.moved.rawValue)
                w.u32(from)
                w.u32(to)
            case .attributes(let layer, let a):
                w.u8(ChangeKind.attributes.rawValue)
                w.u32(layer)
                attributes(a, groups: groups, &w)
            case .frame(let r):
                w.u8(ChangeKind.frame.rawValue)
                w.i64(r.minX)
                w.i64(r.minY)
                w.u32(r.width)
                w.u32(r.height)
            }
        }
    }

    /// Whether any step moves the frame.
    private static func movesTheFrame(_ image: HistoryImage) -> Bool {
        (image.undo + image.redo).contains { step in step.changes.contains { if case .frame = $0 { true } else { false } } }
    }

    /// Whether any layer the image names is a group or in one.
    private static func usesGroups(_ image: HistoryImage) -> Bool {
        func grouped(_ a: LayerAttributes) -> Bool { a.group != nil || a.depth != 0 }
        if image.layers.contains(where: { grouped($0.attributes) }) { return true }
        return (image.undo + image.redo).contains { step in
            step.changes.contains { if case .attributes(_, let a) = $0 { grouped(a) } else { false } }
        }
    }

    private static func attributes(_ a: LayerAttributes, groups: Bool, _ w: inout HistoryBytesWriter) {
        w.string(a.name)
        w.u8(a.visible ? 1 : 0)
        w.u64(a.opacity.bitPattern)
        w.string(a.mode.rawValue)
        w.u32(a.extra.count)
        for e in a.extra {
            w.string(e.name)
            w.string(e.value)
        }
        guard groups else { return }
        let group: UInt8 = switch a.group { case nil: 0; case .passThrough?: 1; case .isolated?: 2 }
        w.u8(group)
        w.u32(a.depth)
    }

    /// The most memory the tiles of a history may take when read: the undo memory, and twice
    /// the canvas for each layer of the
    /// snapshot and one more, which a single step may go beyond the undo memory by (a merge, a
    /// clear, redo steps of what was drawn on bare tiles). A file the window wrote is within it;
    /// a hostile one cannot make the reader take more.
    public static func memoryLimit(undoBytes: Int, storage: Size, layers: Int) -> Int {
        let canvas = TileKey.covering(Rect(size: storage)).count * Tile.bytes
        return undoBytes + 2 * (layers + 1) * canvas
    }

    /// Reads a history file's bytes into fresh tiles; refuses, saying why, a file that is not
    /// one, cut short, damaged, or holding more than `memoryLimit` bytes of tiles. Whether the
    /// history fits its snapshot is `HistoryImage.check`'s to say.
    public static func decode(_ bytes: [UInt8], memoryLimit: Int) throws(Failure) -> HistoryImage {
        let headerBytes = magic.count + 4 + 8
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic else { throw Failure(message: "not a Quicksilver history file") }
        guard bytes.count >= headerBytes + 4 else { throw Failure(message: "cut short: \(bytes.count) bytes") }
        var head = HistoryBytesReader(bytes, from: magic.count, to: headerBytes, memoryLimit: 0)
        defer { head.finish() }
        let version = try head.u32(), length = try head.u64()
        guard (Self.version...Self.frameVersion).contains(version) else {
            throw Failure(message: "version \(version) (this program reads versions \(Self.version) to \(Self.frameVersion))")
        }
        let groups = version >= Self.groupsVersion, frames = version >= Self.frameVersion
        guard length == UInt64(bytes.count) else {
            throw Failure(message: length > UInt64(bytes.count) ? "cut short: \(bytes.count) of \(length) bytes" : "\(bytes.count) bytes where it says \(length)")
        }
        let end = bytes.count - 4
        let crc = bytes.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, end) }
        let stored = bytes[end..<bytes.count].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard crc == stored else { throw Failure(message: "damaged (its checksum does not match)") }
        var r = HistoryBytesReader(bytes, from: headerBytes, to: end, memoryLimit: memoryLimit)
        defer { r.finish() }
        var stackTiles: [TileSet] = []
        for _ in 0..<(try r.u32()) {
            var keys: [TileKey] = []
            for _ in 0..<(try r.u32()) {
                try r.spend(MemoryLayout<TileKey>.stride)
                keys.append(try r.key())
            }
            guard let set = TileSet(keys: keys) else { throw Failure(message: "damaged (a layer's tiles)") }
            stackTiles.append(set)
        }
        var layers: [HistoryImage.LayerEntry] = []
        for _ in 0..<(try r.u32()) {
            let a = try attributes(&r, groups: groups)
            var tiles: [(key: TileKey, tile: Tile)] = []
            for _ in 0..<(try r.u32()) {
                let key = try r.key()
                guard let tile = try r.tile() else { throw Failure(message: "damaged (a layer's tile is missing)") }
                tiles.append((key, tile))
            }
            layers.append(HistoryImage.LayerEntry(attributes: a, tiles: tiles))
        }
        var lists: [[HistoryImage.Step]] = []
        for _ in 0..<2 {
            var steps: [HistoryImage.Step] = []
            for _ in 0..<(try r.u32()) { steps.append(try step(&r, groups: groups, frames: frames)) }
            lists.append(steps)
        }
        let counted = try r.i64(), nextNumber = try r.i64()
        guard r.at == end else { throw Failure(message: "damaged (bytes after its end)") }
        return HistoryImage(stackTiles: stackTiles, layers: layers, undo: lists[0], redo: lists[1], bytes: counted, nextNumber: nextNumber)
    }

    private static func step(_ r: inout HistoryBytesReader, groups: Bool, frames: Bool) throws(Failure) -> HistoryImage.Step {
        let current = try r.u32()
        var changes: [HistoryImage.Change] = []
        for _ in 0..<(try r.u32()) {
            guard let kind = ChangeKind(rawValue: try r.u8()) else { throw Failure(message: "damaged (unknown kind of change)") }
            switch kind {
            case .tiles:
                let layer = try r.u32()
                var keys: [TileKey] = [], tiles: [Tile?] = []
                for _ in 0..<(try r.u32()) {
                    keys.append(try r.key())
                    tiles.append(try r.tile())
                }
                changes.append(.tiles(layer: layer, keys: keys, tiles: tiles))
            case .inserted: changes.append(.inserted(layer: try r.u32(), at: try r.u32()))
            case .removed: changes.append(.removed(layer: try r.u32(), at: try r.u32()))
            case .moved: changes.append(.moved(from: try r.u32(), to: try r.u32()))
            case .attributes: changes.append(.attributes(layer: try r.u32(), try attributes(&r, groups: groups)))
            case .frame:
                guard frames else { throw Failure(message: "damaged (a frame's move in a version \(Self.groupsVersion) file)") }
                let x = try r.i64(), y = try r.i64(), width = try r.u32(), height = try r.u32()
                // Checked against the plane by `HistoryImage.check`; kept from overflowing here.
                guard abs(x) <= 1 << 40, abs(y) <= 1 << 40 else { throw Failure(message: "damaged (a frame far off the canvas)") }
                changes.append(.frame(Rect(x: x, y: y, width: width, height: height)))
            }
        }
        return HistoryImage.Step(changes: changes, current: current)
    }

    private static func attributes(_ r: inout HistoryBytesReader, groups: Bool) throws(Failure) -> LayerAttributes {
        let name = try r.string(), visible = try r.bool(), opacity = Double(bitPattern: try r.u64())
        guard let mode = BlendMode(rawValue: try r.string()) else { throw Failure(message: "damaged (an unknown blend mode)") }
        var extra: [ExtraAttribute] = []
        for _ in 0..<(try r.u32()) { extra.append(ExtraAttribute(name: try r.string(), value: try r.string())) }
        guard groups else { return LayerAttributes(name: name, visible: visible, opacity: opacity, mode: mode, extra: extra) }
        let group: Isolation?
        switch try r.u8() {
        case 0: group = nil
        case 1: group = .passThrough
        case 2: group = .isolated
        default: throw Failure(message: "damaged (an unknown kind of group)")
        }
        let depth = try r.u32()
        guard depth <= DocumentLimits.maxDepth else { throw Failure(message: "damaged (a layer nested deeper than a document may hold)") }
        return LayerAttributes(name: name, visible: visible, opacity: opacity, mode: mode, extra: extra, group: group, depth: depth)
    }
}
