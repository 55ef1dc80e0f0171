import Compute
import Geometry

/// A document's undo history as plain values, off the frame loop's objects: what a compacted
/// journal keeps beside its snapshot (`DocumentImage`), so that undo and redo reach as far back
/// after a compaction as before it, in the window and in every replay.
///
/// Layers are objects in memory; here they are numbers. The layers of the stack, as the image
/// was taken (the snapshot's layers, bottom first), are 0 ..< `stackTiles.count`; a layer only
/// the history holds (deleted, or inserted by a step since undone) is `stackTiles.count + k`,
/// `layers[k]`, with its pixels and attributes as they are now.
///
/// Tiles are shared, not copied: a tile in a history step is never written again (a change
/// writes into a fresh copy), and neither is a tile of a layer only the history holds, so the
/// image can be read (encoded) on another thread while the frame loop goes on.
public struct HistoryImage: Sendable {
    /// One change of a step, in the form that undoes it (see `History.Change`).
    public enum Change: Sendable {
        /// `tiles[k]` was the layer's tile at `keys[k]` (nil: none).
        case tiles(layer: Int, keys: [TileKey], tiles: [Tile?])
        /// The layer was inserted at `at` (undo removes it).
        case inserted(layer: Int, at: Int)
        /// The layer was removed from `at` (undo puts it back).
        case removed(layer: Int, at: Int)
        /// The layer at `from` was moved to `to`.
        case moved(from: Int, to: Int)
        /// The layer's attributes were these.
        case attributes(layer: Int, LayerAttributes)
        /// The frame was this.
        case frame(Rect)
    }

    /// One undo or redo step: its changes in the order they were made, and the current layer
    /// to go back to.
    public struct Step: Sendable {
        public var changes: [Change]
        public var current: Int
        public init(changes: [Change], current: Int) { self.changes = changes; self.current = current }
    }

    /// A layer only the history holds.
    public struct LayerEntry: Sendable {
        public var attributes: LayerAttributes
        /// Its tiles by key; the missing ones are transparent.
        public var tiles: [(key: TileKey, tile: Tile)]
        public init(attributes: LayerAttributes, tiles: [(key: TileKey, tile: Tile)]) {
            self.attributes = attributes; self.tiles = tiles
        }
    }

    /// For each layer of the stack, which of its tiles exist (`TileSet`): a tile stays once
    /// drawn, even erased to nothing, and what a later stroke saves for undo (a tile, or none)
    /// counts against the undo memory, so a replay must have the same tiles as the window.
    public var stackTiles: [TileSet]
    public var layers: [LayerEntry]
    /// Oldest first; the last is undone first.
    public var undo: [Step]
    /// The last is redone first.
    public var redo: [Step]
    /// The memory the history counted (`History`'s running total), restored as it was.
    public var bytes: Int
    /// The number the next new layer is named after ("Layer N").
    public var nextNumber: Int

    public init(stackTiles: [TileSet], layers: [LayerEntry], undo: [Step], redo: [Step], bytes: Int, nextNumber: Int) {
        self.stackTiles = stackTiles; self.layers = layers; self.undo = undo; self.redo = redo
        self.bytes = bytes; self.nextNumber = nextNumber
    }

    /// True when it holds no step.
    public var isEmpty: Bool { undo.isEmpty && redo.isEmpty }

    /// Why a history does not fit the document it is loaded into (a damaged or foreign file).
    public struct Mismatch: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }
}

/// Which tiles of a layer exist: their keys, in order, each once.
public struct TileSet: Sendable, Equatable {
    public let keys: [TileKey]
    private let members: Set<TileKey>

    /// The keys of the tiles a layer holds.
    public init(_ texture: TiledTexture) { self.init(sorted: texture.keys) }

    private init(sorted keys: [TileKey]) {
        self.keys = keys
        members = Set(keys)
    }

    /// A set of these keys (as `keys` gives them); nil unless they are in order, each once.
    public init?(keys: [TileKey]) {
        guard zip(keys, keys.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        self.init(sorted: keys)
    }

    public var count: Int { keys.count }
    public func contains(_ key: TileKey) -> Bool { members.contains(key) }
    public static func == (a: TileSet, b: TileSet) -> Bool { a.keys == b.keys }
}
