import Geometry

/// A small strict reader for the XML of stack.xml: elements and their attributes, in file order.
///
/// Why not Foundation's XMLParser: on Linux its parse() returns true for a document cut off or
/// with a stray end tag (the error is only in parserError), its errors have no text, it hands
/// attributes over as a dictionary (their order lost), and it brings libxml2 in at run time.
/// stack.xml uses a small part of XML, read here whole: the XML declaration (UTF-8 only), a
/// DOCTYPE without declarations, comments, processing instructions, CDATA, the five predefined
/// entities and character references. Text is checked and dropped (stack.xml keeps everything in
/// attributes). A DOCTYPE with an internal subset is refused, so no entity can be declared, let
/// alone expanded a billion times. Errors give the line.
enum XMLReader {
    struct Element {
        var name: String
        var attributes: [ORAAttribute]
        var children: [Element]
        var line: Int

        func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }
    }

    struct Failure: Error, Equatable {
        var line: Int
        var message: String
    }

    /// The deepest nesting read; deeper is refused rather than risk the stack of what walks the tree.
    static let maxDepth = 256
    /// The most elements read: sixteen for each layer a document may hold, room for any stack
    /// of them, and a bound on the tree however small the elements of the text.
    static let maxElements = 16 * DocumentLimits.maxLayers
    /// The most attributes of one element (Krita's and MyPaint's layers have about 15).
    static let maxAttributes = 256

    static func parse(_ bytes: [UInt8]) throws(Failure) -> Element {
        var scanner = Scanner(bytes)
        return try scanner.document()
    }
}

private struct Scanner {
    let bytes: [UInt8]
    var at = 0
    var elementCount = 0
    /// The line of the offset last asked for: lines are counted on from there (the reader asks
    /// in file order, but for an error), never held a number a line.
    private let counted = LineCount()

    private final class LineCount {
        var offset = 0, line = 1
    }

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { at = 3 }
    }

    func line(_ offset: Int) -> Int {
        if offset < counted.offset { counted.offset = 0; counted.line = 1 }
        let end = min(offset, bytes.count)
        var line = counted.line
        for i in counted.offset..<max(end, counted.offset) where bytes[i] == 0x0A { line += 1 }
        counted.offset = max(end, counted.offset)
        counted.line = line
        return line
    }

    func fail(_ message: String, at offset: Int? = nil) -> XMLReader.Failure {
        XMLReader.Failure(line: line(offset ?? at), message: message)
    }

    mutating func document() throws(XMLReader.Failure) -> XMLReader.Element {
        if let bad = firstForbiddenCharacter() { throw fail(bad.message, at: bad.offset) }
        if looking(at: "<?xml") && at + 5 < bytes.count && isSpace(bytes[at + 5]) { try declaration() }
        var sawDoctype = false
        while true {
            skipSpace()
            if looking(at: "<!--") { try comment() }
            else if looking(at: "<?") { try processingInstruction() }
            else if looking(at: "<!DOCTYPE") {
                if sawDoctype { throw fail("a second DOCTYPE") }
                sawDoctype = true
                try doctype()
            } else { break }
        }
        guard at < bytes.count else { throw fail("no root element") }
        guard bytes[at] == UInt8(ascii: "<") else { throw fail("text before the root element") }
        let root = try elements()
        while true {
            skipSpace()
            if at == bytes.count { return root }
            if looking(at: "<!--") { try comment() }
            else if looking(at: "<?") { try processingInstruction() }
            else { throw fail("more after the root element </\(root.name)>") }
        }
    }

    /// The root element and everything in it, read without recursion.
    mutating func elements() throws(XMLReader.Failure) -> XMLReader.Element {
        var open: [XMLReader.Element] = []
        while true {
            // At "<" of a start tag.
            elementCount += 1
            guard elementCount <= XMLReader.maxElements else { throw fail("more than \(XMLReader.maxElements) elements") }
            let (element, empty) = try startTag()
            if empty {
                guard var parent = open.popLast() else { return element }
                parent.children.append(element)
                open.append(parent)
            } else {
                guard open.count < XMLReader.maxDepth else { throw fail("elements nested deeper than \(XMLReader.maxDepth)", at: at) }
                open.append(element)
            }
            // Content, up to the next start tag or the end of the root.
            while let current = open.last {
                try text()
                guard at < bytes.count else { throw fail("cut off: <\(current.name)> (line \(current.line)) is never closed") }
                if looking(at: "</") {
                    let start = at
                    at += 2
                    let name = try self.name()
                    skipSpace()
                    try expect(">")
                    guard name == current.name else {
                        throw fail("</\(name)> closes <\(current.name)> (line \(current.line))", at: start)
                    }
                    let done = open.removeLast()
                    guard var parent = open.popLast() else { return done }
                    parent.children.append(done)
                    open.append(parent)
                } else if looking(at: "<!--") { try comment() }
                else if looking(at: "<![CDATA[") { try skip(past: "]]>", what: "CDATA section") }
                else if looking(at: "<?") { try processingInstruction() }
                else if looking(at: "<!") { throw fail("a declaration inside an element") }
                else { break }
            }
        }
    }

    /// At "<": the name and attributes; whether the tag closes itself ("/>").
    mutating func startTag() throws(XMLReader.Failure) -> (XMLReader.Element, Bool) {
        let start = at
        at += 1
        var element = XMLReader.Element(name: try name(), attributes: [], children: [], line: line(start))
        var names: Set<String> = []
        while true {
            let spaced = skipSpace()
            if looking(at: "/>") { at += 2; return (element, true) }
            if looking(at: ">") { at += 1; return (element, false) }
            guard at < bytes.count else { throw fail("cut off inside <\(element.name)>") }
            guard spaced else { throw fail("expected a space, > or /> in <\(element.name)>") }
            let nameAt = at
            let attribute = try name()
            skipSpace()
            try expect("=")
            skipSpace()
            let value = try attributeValue()
            guard names.insert(attribute).inserted else { throw fail("<\(element.name)> has two \(attribute) attributes", at: nameAt) }
            guard names.count <= XMLReader.maxAttributes else { throw fail("<\(element.name)> has more than \(XMLReader.maxAttributes) attributes", at: nameAt) }
            element.attributes.append(ORAAttribute(attribute, value))
        }
    }

    /// A quoted value, references replaced and each tab, newline or carriage return made a space
    /// (XML's attribute-value normalisation; written as a character reference, they survive).
    mutating func attributeValue() throws(XMLReader.Failure) -> String {
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else {
            throw fail("an attribute value must be quoted")
        }
        let quote = bytes[at]
        at += 1
        var value: [UInt8] = []
        while true {
            guard at < bytes.count else { throw fail("cut off inside an attribute value") }
            let byte = bytes[at]
            if byte == quote { at += 1; break }
            switch byte {
            case UInt8(ascii: "<"): throw fail("< inside an attribute value")
            case UInt8(ascii: "&"): value += try reference()
            case 0x09, 0x0A, 0x0D: value.append(0x20); at += 1
            default: value.append(byte); at += 1
            }
        }
        return String(decoding: value, as: UTF8.self)
    }

    /// Text up to the next "<", its references checked; dropped.
    mutating func text() throws(XMLReader.Failure) {
        while at < bytes.count, bytes[at] != UInt8(ascii: "<") {
            if bytes[at] == UInt8(ascii: "&") { _ = try reference() } else { at += 1 }
        }
    }

    /// At "&": the UTF-8 of an entity or character reference.
    mutating func reference() throws(XMLReader.Failure) -> [UInt8] {
        let start = at
        guard let semicolon = bytes[at...].prefix(16).firstIndex(of: UInt8(ascii: ";")) else { throw fail("& that starts no reference (write &amp;)") }
        let body = String(decoding: bytes[(at + 1)..<semicolon], as: UTF8.self)
        at = semicolon + 1
        switch body {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default: break
        }
        var code: UInt32?
        if body.hasPrefix("#x") { code = UInt32(body.dropFirst(2), radix: 16) }
        else if body.hasPrefix("#") { code = UInt32(body.dropFirst(), radix: 10) }
        else { throw fail("unknown entity &\(body);", at: start) }
        guard let code, let scalar = Unicode.Scalar(code), isXMLCharacter(scalar) else {
            throw fail("&\(body); is not a character XML allows", at: start)
        }
        return Array(String(Character(scalar)).utf8)
    }

    /// The XML declaration: only UTF-8 (or its subset ASCII) is read.
    mutating func declaration() throws(XMLReader.Failure) {
        let start = at
        guard let end = find("?>") else { throw fail("cut off in the XML declaration") }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        at = end + 2
        if let range = text.range(of: "encoding") {
            let value = text[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }
                .prefix { $0 != "\"" && $0 != "'" && $0 != " " }
            guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(value.lowercased()) else {
                throw fail("encoding \(value) is not read (UTF-8 only)", at: start)
            }
        }
    }

    /// `<!DOCTYPE name …>`; one with declarations ("[…]") is refused.
    mutating func doctype() throws(XMLReader.Failure) {
        let start = at
        var quote: UInt8?
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            if let q = quote { if byte == q { quote = nil }; continue }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
            case UInt8(ascii: "["): throw fail("a DOCTYPE with declarations is not read", at: start)
            case UInt8(ascii: ">"): return
            default: continue
            }
        }
        throw fail("cut off in the DOCTYPE", at: start)
    }

    mutating func comment() throws(XMLReader.Failure) { try skip(past: "-->", what: "comment") }

    mutating func processingInstruction() throws(XMLReader.Failure) {
        if looking(at: "<?xml"), at + 5 < bytes.count, isSpace(bytes[at + 5]) || bytes[at + 5] == UInt8(ascii: "?") {
            throw fail("an XML declaration that is not at the start")
        }
        try skip(past: "?>", what: "processing instruction")
    }

    mutating func skip(past end: String, what: String) throws(XMLReader.Failure) {
        guard let found = find(end) else { throw fail("cut off in a \(what)") }
        at = found + end.utf8.count
    }

    /// A name: a letter, "_", ":" or any non-ASCII character, then those, digits, "-" and ".".
    mutating func name() throws(XMLReader.Failure) -> String {
        let start = at
        while at < bytes.count, XMLName.isNameByte(bytes[at], first: at == start) { at += 1 }
        guard at > start else {
            throw fail(at < bytes.count ? "expected a name, found \(String(decoding: bytes[at..<min(at + 1, bytes.count)], as: UTF8.self))" : "cut off where a name was expected")
        }
        return String(decoding: bytes[start..<at], as: UTF8.self)
    }

    mutating func expect(_ text: String) throws(XMLReader.Failure) {
        guard looking(at: text) else { throw fail(at < bytes.count ? "expected \(text)" : "cut off where \(text) was expected") }
        at += text.utf8.count
    }

    /// Skips white space; whether there was any.
    @discardableResult
    mutating func skipSpace() -> Bool {
        let start = at
        while at < bytes.count, isSpace(bytes[at]) { at += 1 }
        return at > start
    }

    func looking(at text: String) -> Bool { bytes[at...].starts(with: text.utf8) }

    func find(_ text: String) -> Int? {
        let needle = Array(text.utf8)
        var i = at
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0], bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v == 0x09 || v == 0x0A || v == 0x0D || (v >= 0x20 && v != 0xFFFE && v != 0xFFFF)
    }

    /// Where the bytes stop being UTF-8 text XML allows, if they do.
    func firstForbiddenCharacter() -> (offset: Int, message: String)? {
        var offset = 0
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                guard isXMLCharacter(scalar) else {
                    return (offset, "character U+\(String(scalar.value, radix: 16, uppercase: true)) is not allowed in XML")
                }
                offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return (offset, "not UTF-8 text")
            }
        }
    }
}

/// What XML allows in a name, for the reader and for the writer (which must not write an
/// attribute the reader would refuse).
enum XMLName {
    static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"), UInt8(ascii: ":"), 0x80...: true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."): !first
        default: false
        }
    }

    static func isName(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return !bytes.isEmpty && bytes.indices.allSatisfy { isNameByte(bytes[$0], first: $0 == 0) }
    }
}
