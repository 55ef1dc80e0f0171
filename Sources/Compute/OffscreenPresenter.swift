import Geometry

/// A presenter with no display: frames land in memory (for `quicksilver render` and tests).
public final class OffscreenPresenter: Presenter {
    public let image: TextureStorage<UInt32>
    public init(size: Size) { image = TextureStorage(width: size.width, height: size.height, filledWith: 0) }
    public var size: Size { image.texture.size }
    public func frameTarget() -> Texture<UInt32> { image.texture }
    public func present(_ damage: Rect) {}
}
