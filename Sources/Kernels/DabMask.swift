import Foundation

/// The opacity a MyPaint dab lays on each pixel: libmypaint 1.6's dab mask, reproduced in its own
/// float arithmetic so that the same dab gives the same 15-bit opacities (0…1<<15) here as there.
///
/// A dab is an ellipse (`radius` along its long axis, `aspectRatio` ≥ 1, turned by `angle`
/// degrees) whose opacity falls off with rr, the squared distance from its centre over radius²,
/// along two straight segments that meet at `hardness`: 1 at the centre, `hardness`'s share at
/// rr = hardness, 0 at the rim. Dabs under 3 px in radius are anti-aliased by the distance to the
/// nearest and farthest points of each pixel, as libmypaint does.
///
/// libmypaint works tile by tile, with the dab's centre in the tile's own coordinates (`x − 64·tx`,
/// a float subtraction that rounds): `local(tileX:tileY:)` gives those, and every pixel's
/// opacity is computed from them, so a pixel's value never depends on how the work is split.
public struct DabMask: Sendable {
    public let x: Float, y: Float
    public let radius: Float
    let hardness: Float
    let aspectRatio: Float
    let cs: Float, sn: Float
    let oneOverRadius2: Float
    let antialiased: Bool
    let rAAStart: Float
    let segment1Offset: Float, segment1Slope: Float
    let segment2Offset: Float, segment2Slope: Float

    /// libmypaint's `sqrtf(1.0f / M_PI)`: the radius of a circle of area 1.
    static let radAreaOne = Float(1.0 / 3.14159265358979323846).squareRoot()

    /// A dab centred at (x, y) in canvas pixels (pixel centres at +0.5). `hardness` must be above 0
    /// (a dab of hardness 0 is not drawn).
    public init(x: Float, y: Float, radius: Float, hardness: Float, aspectRatio: Float, angle: Float) {
        self.x = x
        self.y = y
        self.radius = radius
        // CLAMP(hardness, 0.0, 1.0), and aspect ratios below 1 taken as 1.
        let hardness = hardness > 1 ? 1 : (hardness < 0 ? 0 : hardness)
        self.hardness = hardness
        self.aspectRatio = aspectRatio < 1 ? 1 : aspectRatio
        segment1Offset = 1
        segment1Slope = -(1 / hardness - 1)
        segment2Offset = hardness / (1 - hardness)
        segment2Slope = -hardness / (1 - hardness)
        // `angle/360*2*M_PI`: two float steps, then the product with M_PI in double.
        let angleRad = Float(Double(angle / 360 * 2) * 3.14159265358979323846)
        cs = Float(Foundation.cos(Double(angleRad)))
        sn = Float(Foundation.sin(Double(angleRad)))
        oneOverRadius2 = 1 / (radius * radius)
        antialiased = radius < 3
        let border: Float = 1
        var start = radius > border ? radius - border : 0
        start *= start / self.aspectRatio
        rAAStart = start
    }

    /// How far from its centre the dab may reach: radius + 1, as libmypaint rounds its bounds.
    @inlinable public var fringe: Float { radius + 1 }

    /// The pixels the dab may touch, whole pixels, clipped to nothing: from ⌊x − fringe⌋ to
    /// ⌊x + fringe⌋ inclusive (so `maxX` is one past the last).
    public var bounds: (minX: Int, minY: Int, maxX: Int, maxY: Int) {
        let f = fringe
        return (Int((x - f).rounded(.down)), Int((y - f).rounded(.down)),
                Int((x + f).rounded(.down)) + 1, Int((y + f).rounded(.down)) + 1)
    }

    /// The dab's centre in tile (tx, ty)'s own coordinates, as libmypaint computes them.
    @inline(__always) public func local(tileX tx: Int, tileY ty: Int) -> (x: Float, y: Float) {
        (x - Float(tx &* 64), y - Float(ty &* 64))
    }

    /// The pixels of a 64x64 tile the dab may touch, given its tile-local centre: columns
    /// `x0...x1` and rows `y0...y1`, inclusive, within 0…63 (empty when x0 > x1 or y0 > y1).
    @inline(__always) public func tileRange(localX lx: Float, localY ly: Float) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        let f = fringe
        let x0 = Int((lx - f).rounded(.down)), y0 = Int((ly - f).rounded(.down))
        let x1 = Int((lx + f).rounded(.down)), y1 = Int((ly + f).rounded(.down))
        return (max(x0, 0), max(y0, 0), min(x1, 63), min(y1, 63))
    }

    /// The opacity, 0…1<<15, at pixel (xp, yp) of a tile, given the dab's tile-local centre.
    @inline(__always) public func opacity(xp: Int, yp: Int, localX lx: Float, localY ly: Float) -> UInt32 {
        let rr = antialiased ? rrAntialiased(xp: xp, yp: yp, lx: lx, ly: ly) : rrPlain(xp: xp, yp: yp, lx: lx, ly: ly)
        let below = rr <= hardness
        var opa = below ? segment1Offset : segment2Offset
        opa += rr * (below ? segment1Slope : segment2Slope)
        if rr > 1 { return 0 }
        // `(uint16_t)(opa * (1<<15))`: truncated; never negative in practice, and NaN only past the rim.
        let v = opa * 32768
        return v > 0 ? UInt32(min(v, 65535)) : 0
    }

    @inline(__always) func rrPlain(xp: Int, yp: Int, lx: Float, ly: Float) -> Float {
        let yy = Float(yp) + 0.5 - ly
        let xx = Float(xp) + 0.5 - lx
        let yyr = (yy * cs - xx * sn) * aspectRatio
        let xxr = yy * sn + xx * cs
        return (yyr * yyr + xxr * xxr) * oneOverRadius2
    }

    @inline(__always) func rSample(_ x: Float, _ y: Float) -> Float {
        let yyr = (y * cs - x * sn) * aspectRatio
        let xxr = y * sn + x * cs
        return yyr * yyr + xxr * xxr
    }

    /// libmypaint's calculate_rr_antialiased: the visibility at the pixel's point nearest the
    /// centre, lessened by how much farther a point one unit of area away lies.
    @inline(__always) func rrAntialiased(xp: Int, yp: Int, lx: Float, ly: Float) -> Float {
        let right = lx - Float(xp), bottom = ly - Float(yp)
        let centerX = right - 0.5, centerY = bottom - 0.5
        let left = right - 1, top = bottom - 1
        var nearX: Float = 0, nearY: Float = 0, rrNear: Float = 0
        if !(left < 0 && right > 0 && top < 0 && bottom > 0) {
            // The point of the dab's axis line nearest the pixel centre, clamped into the pixel.
            let l2 = cs * cs + sn * sn
            let t = (centerX * cs + centerY * sn) / l2
            nearX = cs * t
            nearY = sn * t
            nearX = nearX > right ? right : (nearX < left ? left : nearX)
            nearY = nearY > bottom ? bottom : (nearY < top ? top : nearY)
            rrNear = rSample(nearX, nearY) * oneOverRadius2
        }
        if rrNear > 1 { return rrNear }
        // Which side of the axis the pixel centre lies on: sign_point_in_line(center, cs, −sn).
        let sign = (centerX - cs) * sn - cs * (centerY + sn)
        let farX: Float, farY: Float
        if sign < 0 {
            farX = nearX - sn * Self.radAreaOne
            farY = nearY + cs * Self.radAreaOne
        } else {
            farX = nearX + sn * Self.radAreaOne
            farY = nearY - cs * Self.radAreaOne
        }
        let rFar = rSample(farX, farY)
        let rrFar = rFar * oneOverRadius2
        if rFar < rAAStart { return (rrFar + rrNear) * 0.5 }
        var visibility = 1 - rrNear
        visibility /= 1 + (rrFar - rrNear)
        return 1 - visibility
    }
}
