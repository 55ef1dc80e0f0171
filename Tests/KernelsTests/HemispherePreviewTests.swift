import Compute
import Kernels
import Testing

@Suite struct HemispherePreviewTests {
    @Test func rendersTheSamePixelsAsTheHemisphereAsLightsMove() throws {
        let preview = HemispherePreview(size: 48)
        var shading = Shading.mercurialPaint
        preview.render(shading)
        #expect(preview.image.pixels == Hemisphere.image(shading: shading, size: 48).pixels)
        for (k, x) in [(0, 10.0), (2, -3.0), (2, 40.0), (3, 0.5)] {
            var lights = shading.lights
            let l = lights[k]
            lights[k] = try #require(Shading.Light(hue: l.hue, brightness: l.brightness, x: x, y: l.y, z: l.z))
            shading = try #require(Shading(shininess: k == 3 ? 0.3 : shading.shininess, lights: lights))
            preview.render(shading)
            #expect(preview.image.pixels == Hemisphere.image(shading: shading, size: 48).pixels, "after moving light \(k)")
        }
    }
}
