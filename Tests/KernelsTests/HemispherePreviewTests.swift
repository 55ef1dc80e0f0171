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

    @Test func preparedABudgetAtATimeItRendersTheSamePixels() throws {
        let preview = HemispherePreview(size: 48)
        let shading = Shading.mercurialPaint
        let all = preview.remaining(for: shading)
        #expect(all == 4 * preview.pixelCount && preview.pixelCount > 1700 && preview.pixelCount < 48 * 48)
        var steps = 0
        while !preview.prepare(shading, budget: 1000) { steps += 1 }
        #expect(steps == (all - 1) / 1000 && preview.remaining(for: shading) == 0)
        #expect(preview.rendered == nil, "preparing draws nothing")
        preview.render(shading)
        #expect(preview.rendered == shading)
        #expect(preview.image.pixels == Hemisphere.image(shading: shading, size: 48).pixels)
        // A change of shininess changes every light's part; half prepared, then rendered.
        let shiny = try #require(Shading(shininess: 0.5, lights: shading.lights))
        preview.prepare(shiny, budget: all / 2)
        #expect(preview.remaining(for: shiny) == all - all / 2)
        preview.render(shiny)
        #expect(preview.image.pixels == Hemisphere.image(shading: shiny, size: 48).pixels)
    }
}
