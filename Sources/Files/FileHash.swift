/// What a file's bytes were, in a few characters: 64-bit FNV-1a and the length
/// ("fnv1a64:<16 hex digits>:<bytes>"). Enough to tell a file changed since it was read (it is
/// not meant to withstand someone forging a file to match).
public enum FileHash {
    public static func of(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        bytes.withUnsafeBufferPointer { b in
            for byte in b { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        let hex = String(h, radix: 16)
        return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex + ":\(bytes.count)"
    }
}
