/// A pointer button other than the first (which draws and is reported as `.pointerDown`/`Up`):
/// the middle button and the wheel's clicks, by their X button numbers.
public enum PointerButton: Int, Sendable, Equatable, CaseIterable {
    case middle = 2, right = 3, wheelUp = 4, wheelDown = 5, wheelLeft = 6, wheelRight = 7

    /// The wheel's buttons report a press per click and nothing more.
    public var isWheel: Bool { rawValue >= 4 }
}
