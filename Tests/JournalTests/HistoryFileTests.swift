import Clock
import Compute
import Events
import Files
import Foundation
import Geometry
import Journal
import Kernels
import Paint
import PNGFile
import ReplayFormat
import Testing
import TestSupport

/// The history file beside a compacted journal, named in its header. It is untrusted input:
/// whatever its bytes, reading it and playing the undo and redo it allows never crash, and what
/// does not fit its snapshot is refused, saying why. A journal from before it plays as it did.
@Suite struct HistoryFileTests {
    private typealias Window = CompactionHistoryTests.Window

    /// A compacted journal whose history holds layers inserted, removed, moved and changed,
    /// undo and redo steps: its folder, and the history file's name.
    private func compacted() throws -> (window: Window, history: String) {
        let w = try Window(try ScratchFolder.make("history-file"))
        w.stroke(y: 30)
        w.stroke(y: 34)                                // saves the tiles the first drew
        w.layer(.new(name: "Ink"))
        w.stroke(y: 60, from: 40, to: 160)
        w.layer(.set(opacity: 0.5, mode: .screen, name: "Ink 2"))
        w.layer(.new(name: nil))
        w.stroke(y: 90)
        w.layer(.move(-1))
        w.layer(.delete)                               // a layer only the history holds
        w.layer(.select(1))
        w.layer(.mergeDown)
        w.command(.clear)
        w.command(.undo)                               // redo steps: the clear, the merge
        w.command(.undo)
        try w.compactNow()
        return (w, try #require(try w.header().history))
    }

    @Test func theHeaderNamesItsHistoryBesideIt() throws {
        let header = Replay.Header(size: Size(width: 20, height: 10), snapshot: "j.jsonl.snapshot-1-1.ora", history: "j.jsonl.history-1-1.qsh")
        let line = Replay.line(for: header)
        #expect(line == #"{"quicksilver": 1, "width": 20, "height": 10, "snapshot": "j.jsonl.snapshot-1-1.ora", "history": "j.jsonl.history-1-1.qsh"}"#)
        #expect(try ReplayParser.parse(line).header == header)
        #expect(throws: ReplayError(line: 1, message: #""history" must name a file beside the replay, got "../h.qsh""#, kind: .malformedValue)) {
            try ReplayParser.parse(#"{"quicksilver": 1, "width": 20, "height": 10, "history": "../h.qsh"}"#)
        }
    }

    @Test func aHistoryThatDoesNotFitItsSnapshotIsRefused() throws {
        let (w, name) = try compacted()
        let folder = FilePath.folder(of: w.path)
        let good = try HistoryFile.decode(try FileBytes.read(folder + "/" + name, limit: 1 << 30), memoryLimit: 1 << 30)
        let snapshot = try DocumentFile.read(ora: folder + "/" + #require(try w.header().snapshot), maxSide: 16384).image
        try good.check(size: snapshot.size, snapshot: snapshot)
        func refusal(_ change: (inout HistoryImage) -> Void) -> String? {
            var image = good
            change(&image)
            do { try image.check(size: snapshot.size, snapshot: snapshot) } catch { return error.message }
            // What the check refuses, loading refuses too, changing nothing.
            return nil
        }
        #expect(refusal { $0.stackTiles.removeLast() } == "it was taken with \(snapshot.layers.count - 1) layers, the snapshot has \(snapshot.layers.count)")
        #expect(refusal { $0.undo.append(HistoryImage.Step(changes: [.moved(from: 0, to: 7)], current: 0)) } == "a step moves a layer that is not there")
        #expect(refusal { $0.undo.append(HistoryImage.Step(changes: [.inserted(layer: 0, at: 1)], current: 0)) }
                == "a step removes a layer that is not where it was inserted")
        #expect(refusal { $0.undo.append(HistoryImage.Step(changes: [.removed(layer: 1, at: 0)], current: 0)) } == "a step puts back a layer that is there")
        #expect(refusal { $0.undo.append(HistoryImage.Step(changes: [.attributes(layer: 0, LayerAttributes(name: "x", opacity: .nan))], current: 0)) }
                == "a layer's opacity is out of range")
        #expect(refusal { $0.redo.append(HistoryImage.Step(changes: [.tiles(layer: 9, keys: [TileKey(x: 0, y: 0)], tiles: [nil])], current: 0)) }
                == "a step changes tiles that are not there")
        #expect(refusal { $0.undo.append(HistoryImage.Step(changes: [], current: 5)) } == "a step goes back to layer 6 of \(snapshot.layers.count)")
        #expect(refusal { $0.nextNumber = 0 } == "its counts are out of range")

        // A loaded session refuses it whole, and keeps the history it had.
        let session = Session(size: snapshot.size, compute: ComputeContext(threads: 1))
        session.load(snapshot)
        var bad = good
        bad.undo.append(HistoryImage.Step(changes: [.moved(from: 0, to: 7)], current: 0))
        #expect(throws: HistoryImage.Mismatch("a step moves a layer that is not there")) { try session.load(history: bad) }
        #expect(session.historyImage().isEmpty)

        // A journal naming one is refused in one line, naming it.
        try AtomicFile.write(HistoryFile.encode(bad), to: folder + "/" + name)
        #expect(throws: (any Error).self) { try Playback.load(w.path, compute: ComputeContext(threads: 1)) }
        do { _ = try Playback.load(w.path, compute: ComputeContext(threads: 1)) } catch {
            #expect(error.description == "\(w.path):1: cannot read the undo history \"\(name)\": it does not fit the snapshot: a step moves a layer that is not there")
        }
    }

    @Test func whatIsReadIsBoundedByTheUndoMemory() throws {
        let (w, name) = try compacted()
        let bytes = try FileBytes.read(FilePath.folder(of: w.path) + "/" + name, limit: 1 << 30)
        #expect(throws: HistoryFile.Failure(message: "it holds more than the undo memory allows (15 KiB)")) {
            try HistoryFile.decode(bytes, memoryLimit: 16_000)
        }
        let limit = HistoryFile.memoryLimit(undoBytes: 256 << 20, storage: Size(width: 200, height: 120), layers: 2)
        #expect(limit == (256 << 20) + 2 * 3 * 8 * Tile.bytes)
    }

    /// Bytes changed anywhere (the checksum made to match, as a hostile file would) are refused
    /// or read into a history that plays: never a crash, never a read past the end.
    @Test func aHostileHistoryFileNeverCrashesThePlayer() throws {
        let (w, name) = try compacted()
        let folder = FilePath.folder(of: w.path)
        let good = try FileBytes.read(folder + "/" + name, limit: 1 << 30)
        let snapshot = try DocumentFile.read(ora: folder + "/" + #require(try w.header().snapshot), maxSide: 16384).image
        var random = SplitMix64(seed: 26)
        var read = 0, refused = 0
        for round in 0..<400 {
            var bytes = good
            // Within the body: after the magic, version and length, before the checksum.
            for _ in 0...(round % 4) {
                let at = 20 + Int(random.next() % UInt64(bytes.count - 24))
                bytes[at] = round % 3 == 0 ? UInt8(truncatingIfNeeded: random.next()) : bytes[at] ^ (1 << UInt8(random.next() % 8))
            }
            if round % 50 == 0 { bytes = Array(bytes.prefix(bytes.count / 2)) + Array(repeating: 0xff, count: 4) }
            bytes = withChecksum(bytes, length: bytes.count)
            guard let image = try? HistoryFile.decode(bytes, memoryLimit: 64 << 20), (try? image.check(size: snapshot.size, snapshot: snapshot)) != nil else {
                refused += 1
                continue
            }
            read += 1
            let session = Session(size: snapshot.size, compute: ComputeContext(threads: 1))
            session.load(snapshot)
            try session.load(history: image)
            let steps = image.undo.count + image.redo.count + 1
            for e in Array(repeating: SessionEvent.command(.undo), count: steps) + Array(repeating: .command(.redo), count: steps)
                + [.command(.layer(.new(name: nil))), .command(.undo)] {
                session.handle(e)
            }
            session.draw(FrameInfo(index: 0, timestamp: 0, targetTimestamp: 0), to: OffscreenPresenter(size: Size(width: 200, height: 120)))
        }
        #expect(read > 0 && refused > 0, "\(read) read, \(refused) refused")
    }

    /// A journal written before compactions kept the history (a snapshot, no `history`) plays as
    /// it did: undo finds nothing before its snapshot.
    @Test func aJournalFromBeforeHistoriesPlaysAsItDid() throws {
        let dir = try ScratchFolder.make("history-file")
        let size = Size(width: 100, height: 80)
        var block = [UInt32](repeating: 0, count: size.area)
        for y in 20..<40 { for x in 10..<60 { block[y * size.width + x] = 0xFFCC_2200 } }
        let image = DocumentImage.picture(block, size: size, background: .white)
        let start = Session(size: size, compute: ComputeContext(threads: 1))
        start.load(image)
        try DocumentFile.write(image, merged: PNGImage(width: size.width, height: size.height, pixels: start.snapshot().pixels),
                               to: dir + "/old.jsonl.snapshot-7-1.ora")
        let stroke = [#"{"t": 1, "type": "down", "x": 5, "y": 60, "pressure": 0.5}"#, #"{"t": 1, "type": "up", "x": 90, "y": 65, "pressure": 0.5}"#]
        func play(_ events: [String]) throws -> [UInt32] {
            let text = ([#"{"quicksilver": 1, "width": 100, "height": 80, "snapshot": "old.jsonl.snapshot-7-1.ora"}"#] + events).joined(separator: "\n") + "\n"
            try text.write(toFile: dir + "/old.jsonl", atomically: true, encoding: .utf8)
            let loaded = try Playback.load(dir + "/old.jsonl", reading: .recovering, compute: ComputeContext(threads: 1))
            #expect(loaded.stoppedAt == nil && loaded.historyLost == nil, "\(loaded.stoppedAt.map { "\($0.error)" } ?? "")")
            #expect(!Replay.line(for: try ReplayParser.parse(text).header).contains("history"))
            return loaded.session.snapshot().pixels
        }
        let drawn = try play(stroke)
        let undo = #"{"t": 2, "type": "undo"}"#, redo = #"{"t": 2, "type": "redo"}"#
        expectSamePixels(try play(stroke + [undo, undo]), start.snapshot().pixels, width: 100, "the snapshot is as far back as undo goes")
        expectSamePixels(try play(stroke + [undo, undo, redo]), drawn, width: 100, "and redo brings the stroke back")
        #expect(drawn != start.snapshot().pixels)
    }

    /// `bytes` with its length field and checksum made to match, as a hostile file's would.
    private func withChecksum(_ bytes: [UInt8], length: Int) -> [UInt8] {
        var out = Array(bytes.dropLast(4))
        withUnsafeBytes(of: UInt64(length).littleEndian) { for (k, b) in $0.enumerated() { out[12 + k] = b } }
        var crc: UInt32 = 0xFFFF_FFFF
        for b in out {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        withUnsafeBytes(of: (~crc).littleEndian) { out.append(contentsOf: $0) }
        return out
    }
}
