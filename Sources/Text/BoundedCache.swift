/// A dictionary that holds at most `capacity` entries: when full, the half used longest ago is
/// dropped. Glyph images and runs are kept in these, so a session that shows ever new strings
/// (a status line with a time in it) keeps bounded memory.
struct BoundedCache<Key: Hashable, Value> {
    private var entries: [Key: (value: Value, used: UInt64)] = [:]
    private var clock: UInt64 = 0
    let capacity: Int

    init(capacity: Int) {
        precondition(capacity > 1)
        self.capacity = capacity
    }

    var count: Int { entries.count }

    /// The value for `key`, marked as just used.
    mutating func value(for key: Key) -> Value? {
        guard let i = entries.index(forKey: key) else { return nil }
        clock &+= 1
        entries.values[i].used = clock
        return entries.values[i].value
    }

    mutating func insert(_ value: Value, for key: Key) {
        if entries.count >= capacity, entries[key] == nil {
            // Keep the newer half: those used after the median stamp.
            let stamps = entries.values.map(\.used).sorted()
            let median = stamps[stamps.count / 2]
            entries = entries.filter { $0.value.used >= median }
        }
        clock &+= 1
        entries[key] = (value, clock)
    }

    mutating func removeAll() { entries.removeAll() }
}
