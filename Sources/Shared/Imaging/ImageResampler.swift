/// Resizing and aspect-ratio fitting for RGB images.
///
/// Downscaling averages areas (a box filter: each output pixel is the exact mean of the source
/// area it covers, partial pixels weighted by coverage), which keeps photos free of moiré.
/// Upscaling interpolates bilinearly between pixel centres. Each axis is handled separately,
/// so one image can shrink horizontally and grow vertically. All weights are integers, so a
/// solid colour stays exactly that colour.
public enum ImageResampler {
    /// `image` scaled to `width` x `height` (both at least 1; the aspect ratio is not kept).
    public static func resize(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
        precondition(width > 0 && height > 0, "target size must be positive")
        if width == image.width && height == image.height { return image }
        guard image.width > 0, image.height > 0 else { return RGBImage(width: width, height: height, color: .black) }

        let columns = AxisWeights(source: image.width, target: width)
        let rows = AxisWeights(source: image.height, target: height)

        // Horizontal pass: every source row becomes `width` weighted sums (not yet divided).
        var horizontal = [Int](repeating: 0, count: image.height * width * 3)
        image.pixels.withUnsafeBufferPointer { source in
            for y in 0..<image.height {
                let sourceRow = y * image.width * 3
                let targetRow = y * width * 3
                for x in 0..<width {
                    var red = 0
                    var green = 0
                    var blue = 0
                    for tap in columns.taps[x] {
                        let offset = sourceRow + tap.index * 3
                        red += tap.weight * Int(source[offset])
                        green += tap.weight * Int(source[offset + 1])
                        blue += tap.weight * Int(source[offset + 2])
                    }
                    horizontal[targetRow + x * 3] = red
                    horizontal[targetRow + x * 3 + 1] = green
                    horizontal[targetRow + x * 3 + 2] = blue
                }
            }
        }

        // Vertical pass, then one rounded division by the product of both axes' denominators.
        let denominator = columns.denominator * rows.denominator
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width * 3 {
                var sum = 0
                for tap in rows.taps[y] {
                    sum += tap.weight * horizontal[tap.index * width * 3 + x]
                }
                pixels[y * width * 3 + x] = UInt8(min(255, (sum + denominator / 2) / denominator))
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// The largest size with the aspect ratio of `width` x `height` that fits in the box
    /// (scaling up or down); each side is at least 1 unless the box or the source is empty.
    public static func fit(width: Int, height: Int, intoWidth boxWidth: Int, height boxHeight: Int) -> (width: Int, height: Int) {
        guard width > 0, height > 0, boxWidth > 0, boxHeight > 0 else { return (0, 0) }
        // Compare width/height with boxWidth/boxHeight by cross-multiplying, to stay in integers.
        if width * boxHeight >= height * boxWidth {
            // Limited by the box's width.
            let fitted = (height * boxWidth * 2 + width) / (width * 2) // rounded
            return (boxWidth, min(max(fitted, 1), boxHeight))
        } else {
            let fitted = (width * boxHeight * 2 + height) / (height * 2)
            return (min(max(fitted, 1), boxWidth), boxHeight)
        }
    }
}

/// For each output index along one axis, the source indices it reads and their integer weights;
/// every output's weights sum to `denominator`.
private struct AxisWeights {
    struct Tap {
        let index: Int
        let weight: Int
    }

    let taps: [[Tap]]
    let denominator: Int

    init(source: Int, target: Int) {
        if target == source {
            taps = (0..<target).map { [Tap(index: $0, weight: 1)] }
            denominator = 1
        } else if target < source {
            // Box filter, measured in units of 1/target of a source pixel: output i covers
            // [i*source, (i+1)*source) and source pixel j covers [j*target, (j+1)*target),
            // so every overlap is a whole number and each output's overlaps sum to `source`.
            taps = (0..<target).map { i in
                let start = i * source
                let end = start + source
                var taps: [Tap] = []
                var j = start / target
                while j * target < end {
                    let overlap = min(end, (j + 1) * target) - max(start, j * target)
                    if overlap > 0 { taps.append(Tap(index: j, weight: overlap)) }
                    j += 1
                }
                return taps
            }
            denominator = source
        } else {
            // Bilinear between pixel centres: output i samples source position
            // (i + 0.5) * source / target - 0.5 = ((2i + 1) * source - target) / (2 * target).
            let scale = 2 * target
            taps = (0..<target).map { i in
                let numerator = max(0, (2 * i + 1) * source - target)
                let left = min(numerator / scale, source - 1)
                let fraction = left == source - 1 ? 0 : numerator - left * scale
                if fraction == 0 { return [Tap(index: left, weight: scale)] }
                return [Tap(index: left, weight: scale - fraction), Tap(index: left + 1, weight: fraction)]
            }
            denominator = scale
        }
    }
}
