import Foundation
import Imaging

/// Paints the generated half of the built-in album: small 160x120 scenes (mountains, a sunset
/// over the sea, a city skyline, a beach, fields, northern lights) whose shapes and colours all
/// follow from a seed, so the same reference always gives the same picture and no two seeds
/// look quite alike. The pool photos alone would repeat after 66; these never run out.
enum ScenePainter {
    /// What a generated photo shows; its raw value is part of the photo's reference.
    enum Kind: String, CaseIterable, Sendable {
        case mountains, snowyPeaks, sunset, skyline, beach, fields, aurora

        /// Subject words for the photo's tags.
        var tags: [String] {
            switch self {
            case .mountains: ["mountains", "landscape", "hiking"]
            case .snowyPeaks: ["mountains", "snow", "winter", "landscape"]
            case .sunset: ["sunset", "sea", "sky"]
            case .skyline: ["skyline", "city", "night", "architecture"]
            case .beach: ["beach", "sea", "summer"]
            case .fields: ["fields", "countryside", "landscape"]
            case .aurora: ["aurora", "northernlights", "night", "stars"]
            }
        }
    }

    static let width = 160
    static let height = 120

    /// The PNG bytes of a scene.
    static func png(_ kind: Kind, seed: UInt64) throws(ProviderError) -> [UInt8] {
        do {
            return try ImageCodec.encodePNG(paint(kind, seed: seed))
        } catch {
            throw ProviderError(.badResponse, "could not encode a generated photo: \(error)")
        }
    }

    /// The pixels of a scene.
    static func paint(_ kind: Kind, seed: UInt64) -> RGBImage {
        var canvas = Canvas()
        var random = SeededGenerator(seed: seed)
        switch kind {
        case .mountains: paintMountains(&canvas, &random, snowy: false)
        case .snowyPeaks: paintMountains(&canvas, &random, snowy: true)
        case .sunset: paintSunset(&canvas, &random)
        case .skyline: paintSkyline(&canvas, &random)
        case .beach: paintBeach(&canvas, &random)
        case .fields: paintFields(&canvas, &random)
        case .aurora: paintAurora(&canvas, &random)
        }
        canvas.addGrain(&random)
        return RGBImage(width: width, height: height, pixels: canvas.bytes())
    }

    // MARK: Scenes

    private static func paintMountains(_ canvas: inout Canvas, _ random: inout SeededGenerator, snowy: Bool) {
        let dusk = random.unit() < 0.3
        let top: Colour = dusk ? [60, 70, 140] : [60 + 40 * random.unit(), 110 + 30 * random.unit(), 200]
        let horizon: Colour = dusk ? [240, 170, 120] : [200, 220, 235]
        canvas.verticalGradient(from: 0, to: height, top: top, bottom: horizon)
        if !snowy && random.unit() < 0.6 {
            canvas.disc(
                x: 20 + 120 * random.unit(), y: 15 + 20 * random.unit(), radius: 7, colour: dusk ? [255, 200, 120] : [255, 250, 225])
        }
        let layers = 3
        for layer in 0..<layers {
            let depth = Double(layer) / Double(layers - 1) // 0 far, 1 near
            let ridge = Ridge(&random, base: 45 + 35 * depth, amplitude: 22 - 8 * depth, roughness: 1 + depth)
            let far: Colour = snowy ? [150, 165, 190] : [120, 140, 170]
            let near: Colour = snowy ? [40, 55, 70] : [35 + 30 * random.unit(), 70 + 30 * random.unit(), 35]
            let colour = mix(far, near, depth)
            let haze = mix(horizon, colour, 0.55 + 0.45 * depth)
            for x in 0..<width {
                let crest = ridge.height(at: Double(x))
                for y in span(from: crest, to: height) {
                    let below = Double(y) - crest
                    var pixel = mix(haze, colour, min(1, below / 30))
                    // Snow on the peaks: the higher the crest, the deeper the white cap.
                    if snowy || layer == 0, crest < 55 - 10 * depth, below < (60 - crest) * 0.6 {
                        pixel = mix([245, 248, 252], pixel, below / max(1, (60 - crest) * 0.6))
                    }
                    canvas[x, y] = pixel
                }
            }
        }
        if random.unit() < 0.4 {
            // A lake along the bottom reflecting the sky.
            let shore = 100 + Int(8 * random.unit())
            for y in shore..<height {
                for x in 0..<width {
                    let mirrored = canvas[x, max(0, 2 * shore - y - 40)]
                    canvas[x, y] = mix(mirrored, [30, 60, 90], 0.45 + 0.1 * sin(Double(y) * 1.7 + Double(x) * 0.05))
                }
            }
        }
    }

    private static func paintSunset(_ canvas: inout Canvas, _ random: inout SeededGenerator) {
        let horizonY = 62 + Int(16 * random.unit())
        let warm: Colour = [255, 150 + 60 * random.unit(), 60 + 40 * random.unit()]
        canvas.verticalGradient(from: 0, to: horizonY / 2, top: [40, 30, 90], bottom: [200, 80, 110])
        canvas.verticalGradient(from: horizonY / 2, to: horizonY, top: [200, 80, 110], bottom: warm)
        let sunX = 30 + 100 * random.unit()
        canvas.disc(x: sunX, y: Double(horizonY) - 4, radius: 9 + 6 * random.unit(), colour: [255, 235, 170])
        canvas.verticalGradient(from: horizonY, to: height, top: [70, 40, 80], bottom: [15, 20, 50])
        // The sun's glitter path: short bright strokes that widen towards the viewer.
        for y in horizonY..<height {
            let spread = 4 + Double(y - horizonY) * 0.6
            for _ in 0..<3 where random.unit() < 0.8 {
                let start = Int(sunX + (random.unit() * 2 - 1) * spread)
                for x in start..<(start + 2 + Int(6 * random.unit())) where (0..<width).contains(x) {
                    canvas[x, y] = mix(canvas[x, y], [255, 200, 130], 0.7)
                }
            }
        }
        if random.unit() < 0.5 {
            // A headland in silhouette.
            let left = random.unit() < 0.5
            let ridge = Ridge(&random, base: Double(horizonY) - 8, amplitude: 6, roughness: 1.5)
            for x in 0..<(width / 3) {
                let column = left ? x : width - 1 - x
                let crest = ridge.height(at: Double(x)) + Double(x) * 0.3
                for y in span(from: crest, to: horizonY + 4) { canvas[column, y] = [25, 15, 35] }
            }
        }
    }

    private static func paintSkyline(_ canvas: inout Canvas, _ random: inout SeededGenerator) {
        let ground = 98 + Int(8 * random.unit())
        canvas.verticalGradient(from: 0, to: ground, top: [10, 15, 45], bottom: [120 + 60 * random.unit(), 70, 110])
        for _ in 0..<40 {
            canvas[Int(random.unit() * Double(width)), Int(random.unit() * Double(ground) * 0.5)] = [230, 230, 255]
        }
        var x = -Int(10 * random.unit())
        while x < width {
            let buildingWidth = 8 + Int(16 * random.unit())
            let top = ground - 20 - Int(65 * random.unit() * random.unit() + 10 * random.unit())
            let shade = 18 + 25 * random.unit()
            let lit = 0.2 + 0.35 * random.unit()
            for bx in clipped(x, x + buildingWidth, to: width) {
                for by in clipped(top, ground, to: height) { canvas[bx, by] = [shade, shade, shade + 12] }
            }
            // Windows in a 2-pixel grid with a gap, lit at random.
            for wy in stride(from: top + 3, to: ground - 2, by: 4) {
                for wx in stride(from: x + 2, to: x + buildingWidth - 2, by: 3) where random.unit() < lit {
                    for dx in 0..<2 where (0..<width).contains(wx + dx) {
                        canvas[wx + dx, wy] = [255, 215 + 30 * random.unit(), 120]
                    }
                }
            }
            if random.unit() < 0.15, (0..<width).contains(x + buildingWidth / 2) {
                for ay in max(0, top - 8)..<max(0, top) { canvas[x + buildingWidth / 2, ay] = [shade, shade, shade] }
                if top - 9 >= 0 { canvas[x + buildingWidth / 2, top - 9] = [255, 60, 60] }
            }
            x += buildingWidth + Int(3 * random.unit())
        }
        // Water in front, reflecting the lights.
        for y in ground..<height {
            for x in 0..<width {
                let mirrored = canvas[x, max(0, 2 * ground - y - 1)]
                canvas[x, y] = mix(mirrored, [8, 12, 30], 0.55 + 0.2 * sin(Double(y) * 2.1 + Double(x) * 0.3))
            }
        }
    }

    private static func paintBeach(_ canvas: inout Canvas, _ random: inout SeededGenerator) {
        let horizonY = 50 + Int(15 * random.unit())
        let shoreY = horizonY + 22 + Int(10 * random.unit())
        canvas.verticalGradient(from: 0, to: horizonY, top: [70, 140, 220], bottom: [190, 225, 245])
        for _ in 0..<(1 + Int(3 * random.unit())) {
            let cx = random.unit() * Double(width)
            let cy = 8 + random.unit() * Double(horizonY - 20)
            for puff in 0..<5 {
                canvas.disc(
                    x: cx + Double(puff) * 6 - 12, y: cy + (random.unit() - 0.5) * 4, radius: 5 + 4 * random.unit(),
                    colour: [250, 250, 252], opacity: 0.85)
            }
        }
        canvas.verticalGradient(from: horizonY, to: shoreY, top: [20, 90, 150], bottom: [40, 190, 190])
        let sand: Colour = [225 + 20 * random.unit(), 200 + 15 * random.unit(), 150]
        let phase = random.unit() * 6
        for x in 0..<width {
            let waterline = Double(shoreY) + 3 * sin(Double(x) * 0.08 + phase)
            for y in span(from: waterline, to: height) {
                let wet = max(0, 1 - (Double(y) - waterline) / 6)
                canvas[x, y] = mix(sand, [250, 250, 245], wet * 0.8)
            }
        }
        for y in stride(from: horizonY + 4, to: shoreY, by: 5) {
            for x in 0..<width where sin(Double(x) * 0.25 + Double(y)) > 0.6 { canvas[x, y] = mix(canvas[x, y], [230, 245, 250], 0.5) }
        }
    }

    private static func paintFields(_ canvas: inout Canvas, _ random: inout SeededGenerator) {
        canvas.verticalGradient(from: 0, to: height, top: [90, 150, 225], bottom: [215, 230, 240])
        let palettes: [[Colour]] = [
            [[110, 160, 60], [150, 190, 70]],
            [[200, 170, 70], [225, 200, 100]],
            [[90, 130, 50], [190, 160, 60]],
            [[150, 110, 170], [110, 150, 70]],
        ]
        for layer in 0..<3 {
            let depth = Double(layer) / 2
            let ridge = Ridge(&random, base: 50 + 25 * depth, amplitude: 8, roughness: 0.5)
            let palette = palettes[Int(random.unit() * Double(palettes.count))]
            let slant = random.unit() * 2 - 1
            let period = 3 + 3 * depth
            for x in 0..<width {
                let crest = ridge.height(at: Double(x))
                for y in span(from: crest, to: height) {
                    let stripe = (Double(x) + Double(y) * slant * 3).truncatingRemainder(dividingBy: period * 2)
                    let base = abs(stripe) < period ? palette[0] : palette[1]
                    canvas[x, y] = mix([170, 190, 200], base, 0.5 + 0.5 * depth)
                }
            }
        }
        if random.unit() < 0.7 {
            // A lone tree.
            let treeX = 20 + 120 * random.unit()
            let treeY = 70 + 20 * random.unit()
            for y in Int(treeY)..<Int(treeY + 12) { for dx in 0..<2 { canvas[Int(treeX) + dx, y] = [70, 45, 25] } }
            canvas.disc(x: treeX + 1, y: treeY - 2, radius: 7, colour: [40, 90, 40])
        }
    }

    private static func paintAurora(_ canvas: inout Canvas, _ random: inout SeededGenerator) {
        canvas.verticalGradient(from: 0, to: height, top: [3, 6, 25], bottom: [15, 35, 60])
        for _ in 0..<90 {
            let brightness = 150 + 105 * random.unit()
            canvas[Int(random.unit() * Double(width)), Int(random.unit() * Double(height))] = [brightness, brightness, brightness]
        }
        let curtain = Ridge(&random, base: 30 + 15 * random.unit(), amplitude: 14, roughness: 0.6)
        let green: Colour = [60, 255, 140]
        let violet: Colour = [170, 80, 220]
        let streakPhase = random.unit() * 10
        for x in 0..<width {
            let bottom = curtain.height(at: Double(x)) + 25
            let streak = 0.55 + 0.45 * sin(Double(x) * 0.9 + streakPhase) * sin(Double(x) * 0.13)
            for y in span(from: 0, to: Int(bottom)) {
                let above = bottom - Double(y)
                let glow = exp(-above / 22) * streak
                let colour = mix(green, violet, min(1, above / 45))
                canvas[x, y] = mix(canvas[x, y], colour, min(0.9, glow))
            }
        }
        let hills = Ridge(&random, base: 100, amplitude: 6, roughness: 0.8)
        for x in 0..<width {
            for y in span(from: hills.height(at: Double(x)), to: height) { canvas[x, y] = [20, 28, 45] }
        }
    }

    // MARK: Drawing

    typealias Colour = SIMD3<Double>

    /// Rows from `top` (rounded down) to `bottom`, clipped to the canvas; empty when inverted.
    static func span(from top: Double, to bottom: Int) -> Range<Int> {
        let end = min(height, max(0, bottom))
        let start = top.isFinite ? min(end, max(0, Int(top.rounded(.down)))) : end
        return start..<end
    }

    /// `start..<end` clipped to `0..<limit`; empty when the two lie wholly outside it or are
    /// inverted (a building that ends before the canvas begins).
    static func clipped(_ start: Int, _ end: Int, to limit: Int) -> Range<Int> {
        let upper = min(limit, max(0, end))
        return min(upper, max(0, start))..<upper
    }

    /// Linear mix: `a` at 0, `b` at 1.
    static func mix(_ a: Colour, _ b: Colour, _ t: Double) -> Colour {
        let t = max(0, min(1, t))
        return a + (b - a) * t
    }

    /// A skyline of hills: the sum of a few sine waves with random frequencies and phases.
    struct Ridge {
        private var waves: [(frequency: Double, phase: Double, amplitude: Double)] = []
        private let base: Double

        init(_ random: inout SeededGenerator, base: Double, amplitude: Double, roughness: Double) {
            self.base = base
            var weight = amplitude
            for octave in 0..<4 {
                let frequency = (0.02 + 0.03 * random.unit()) * pow(2.2, Double(octave)) * roughness
                waves.append((frequency, random.unit() * 2 * .pi, weight))
                weight *= 0.45
            }
        }

        /// The row of the crest at column `x`.
        func height(at x: Double) -> Double {
            base - waves.reduce(0) { $0 + $1.amplitude * sin($1.frequency * x + $1.phase) }
        }
    }

    /// Pixels as doubles while painting; rounded to bytes once at the end.
    struct Canvas {
        private var pixels = [Colour](repeating: .zero, count: ScenePainter.width * ScenePainter.height)

        /// The pixel at a column and row; writes outside the canvas are dropped, reads clamp.
        subscript(x: Int, y: Int) -> Colour {
            get {
                pixels[min(max(y, 0), ScenePainter.height - 1) * ScenePainter.width + min(max(x, 0), ScenePainter.width - 1)]
            }
            set {
                guard (0..<ScenePainter.width).contains(x), (0..<ScenePainter.height).contains(y) else { return }
                pixels[y * ScenePainter.width + x] = newValue
            }
        }

        mutating func verticalGradient(from top: Int, to bottom: Int, top topColour: Colour, bottom bottomColour: Colour) {
            guard bottom > top else { return }
            for y in ScenePainter.clipped(top, bottom, to: ScenePainter.height) {
                let colour = ScenePainter.mix(topColour, bottomColour, Double(y - top) / Double(max(1, bottom - top - 1)))
                for x in 0..<ScenePainter.width { self[x, y] = colour }
            }
        }

        /// A filled circle with a soft one-pixel edge.
        mutating func disc(x cx: Double, y cy: Double, radius: Double, colour: Colour, opacity: Double = 1) {
            for y in Int(cy - radius - 1)...Int(cy + radius + 1) {
                for x in Int(cx - radius - 1)...Int(cx + radius + 1) {
                    let distance = ((Double(x) - cx) * (Double(x) - cx) + (Double(y) - cy) * (Double(y) - cy)).squareRoot()
                    let coverage = max(0, min(1, radius - distance + 0.5)) * opacity
                    if coverage > 0 { self[x, y] = ScenePainter.mix(self[x, y], colour, coverage) }
                }
            }
        }

        /// A little noise so flat areas look like a photo rather than a diagram.
        mutating func addGrain(_ random: inout SeededGenerator) {
            for index in pixels.indices {
                let noise = (random.unit() - 0.5) * 6
                pixels[index] += Colour(repeating: noise)
            }
        }

        func bytes() -> [UInt8] {
            var bytes = [UInt8]()
            bytes.reserveCapacity(pixels.count * 3)
            for pixel in pixels {
                for channel in 0..<3 { bytes.append(UInt8(max(0, min(255, pixel[channel].rounded())))) }
            }
            return bytes
        }
    }
}
