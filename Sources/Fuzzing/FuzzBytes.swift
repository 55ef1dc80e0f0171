/// A fuzzer's input read as numbers, front to back. Past the end it reads zeros, so that every
/// input means something and a mutation that cuts one short still reads as much as before.
struct FuzzBytes {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var at = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var isAtEnd: Bool { at >= bytes.count }

    mutating func byte() -> UInt8 {
        defer { at += 1 }
        return at < bytes.count ? bytes[at] : 0
    }

    /// A number in 0..<n (n ≤ 256).
    mutating func below(_ n: Int) -> Int { Int(byte()) % n }

    mutating func bool() -> Bool { byte() & 1 != 0 }

    mutating func uint16() -> UInt16 { UInt16(byte()) << 8 | UInt16(byte()) }

    mutating func uint32() -> UInt32 { UInt32(uint16()) << 16 | UInt32(uint16()) }

    /// The X protocol's FP1616, 16.16 fixed point: XInput 2's window coordinates.
    mutating func fp1616() -> Double { Double(Int32(bitPattern: uint32())) / 65536 }

    /// The X protocol's FP3232, a 32-bit integer part and a 32-bit fraction: XInput 2's valuator
    /// values and ranges.
    mutating func fp3232() -> Double { Double(Int32(bitPattern: uint32())) + Double(uint32()) / 4_294_967_296 }
}
