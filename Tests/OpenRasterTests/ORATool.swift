import Foundation

/// Support/ora_tool.py, the tests' independent reader and writer of zips (Python's zipfile,
/// xml.etree and zlib): what it reads back of a saved file, and files it builds as other programs
/// write them.
enum ORATool {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Support/ora_tool.py").path

    struct Inspection: Decodable {
        struct Entry: Decodable, Equatable { var name: String; var compress: String; var extra: Int; var flags: Int }
        /// The first local header, read as raw bytes: what `file` and other sniffers look at.
        struct First: Decodable { var signature: String; var name: String; var extra: Int; var data: String }
        struct PNG: Decodable { var width: Int; var height: Int; var pixels: [UInt32] }
        var entries: [Entry]
        var first: First
        var stack: Node
        var pngs: [String: PNG]
    }

    /// An XML element as ElementTree reads it, attributes in file order.
    struct Node: Decodable {
        var tag: String
        var attributes: [[String]]
        var children: [Node]
        func attribute(_ name: String) -> String? { attributes.first { $0.first == name }?.last }
    }

    /// An entry of a zip to build.
    struct Entry: Encodable {
        struct PNG: Encodable { var width: Int; var height: Int; var pixels: [UInt32] }
        var name: String
        var compress = "deflated"
        var text: String?
        var png: PNG?
        var hex: String?
        var zeros: Int?

        static func text(_ name: String, _ text: String, stored: Bool = false) -> Entry {
            Entry(name: name, compress: stored ? "stored" : "deflated", text: text)
        }
        static func png(_ name: String, width: Int, height: Int, pixels: [UInt32]) -> Entry {
            Entry(name: name, png: PNG(width: width, height: height, pixels: pixels))
        }
        static func bytes(_ name: String, _ bytes: [UInt8]) -> Entry {
            Entry(name: name, hex: bytes.map { String(format: "%02x", $0) }.joined())
        }
        static func zeros(_ name: String, _ count: Int, stored: Bool) -> Entry {
            Entry(name: name, compress: stored ? "stored" : "deflated", zeros: count)
        }
        /// The mimetype entry as the spec wants it: first, stored.
        static let mimetype = text("mimetype", "image/openraster", stored: true)
    }

    static func inspect(_ path: String) throws -> Inspection {
        try JSONDecoder().decode(Inspection.self, from: run(["inspect", path]))
    }

    /// Writes a zip of `entries`, in order, to `path`; `declare` makes entries lie about their size.
    static func make(_ entries: [Entry], declare: [String: Int] = [:], at path: String) throws {
        struct Spec: Encodable { var entries: [Entry]; var declare: [String: Int] }
        let spec = path + ".json"
        try JSONEncoder().encode(Spec(entries: entries, declare: declare)).write(to: URL(fileURLWithPath: spec))
        _ = try run(["make", spec, path])
    }

    struct Failed: Error, CustomStringConvertible { var description: String }

    private static func run(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read before waiting: a full pipe would stop the script.
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failed(description: "ora_tool.py \(arguments.joined(separator: " ")): \(String(decoding: errors, as: UTF8.self))")
        }
        return output
    }
}
