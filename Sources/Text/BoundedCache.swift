/// A dictionary of bounded cost: each entry costs what its caller says (its bytes, or 1), and when
/// an insertion would pass `capacity` the entries used longest ago are dropped until half of it
/// is left. Glyph images and runs are kept in these, so a session that shows ever new strings
/// (a status line with a time in it) keeps bounded memory.
struct BoundedCache<Key: Hashable, Value> {
    private var entries: [Key: (value: Value, cost: Int, used: UInt64)] = [:]
    private var clock: UInt64 = 0
    /// The most the entries may cost together.
    let capacity: Int
    /// What the entries cost together.
    private(set) var cost = 0

    init(capacity: Int) {
        precondition(capacity > 0)
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

    /// Keeps `value` for `key` (replacing what was there), at `cost` (at least 1).
    mutating func insert(_ value: Value, for key: Key, cost: Int = 1) {
        let cost = max(cost, 1)
        if let old = entries.removeValue(forKey: key) { self.cost -= old.cost }
        if self.cost + cost > capacity {
            // The oldest go first, until at most half the capacity is used.
            for (oldKey, old) in entries.sorted(by: { $0.value.used < $1.value.used }) where self.cost > capacity / 2 {
                entries.removeValue(forKey: oldKey)
                self.cost -= old.cost
            }
        }
        clock &+= 1
        entries[key] = (value, cost, clock)
        self.cost += cost
    }

    mutating func removeAll() {
        entries.removeAll()
        cost = 0
    }
}
