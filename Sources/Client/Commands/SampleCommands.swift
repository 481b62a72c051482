import Imaging

/// samples, samples show N: the picker.
enum SampleCommands {
    static func run(_ context: CommandContext) throws(ClientError) {
        switch (context.parsed.positional(0), context.parsed.positional(1)) {
        case (nil, _):
            try list(context)
        case ("show"?, let number?):
            try show(context, number)
        case ("show"?, nil):
            throw context.usage("which sample? `snapshare samples show N` with N from 1 to 10")
        case (let word?, _):
            throw context.usage("unknown samples action '\(word)'; use `snapshare samples` or `snapshare samples show N`")
        }
    }

    private static func list(_ context: CommandContext) throws(ClientError) {
        let samples = try SampleLibrary.all()
        var rows: [(SampleLibrary.Sample, ImageHeader?)] = []
        for sample in samples { rows.append((sample, try? ImageHeader.parse(try sample.bytes()))) }
        if context.json {
            context.printJSON(
                .array(
                    rows.map { sample, header in
                        .object([
                            ("number", .int(Int64(sample.number))), ("name", .string(sample.name)),
                            ("width", .int(Int64(header?.width ?? 0))), ("height", .int(Int64(header?.height ?? 0))),
                        ])
                    }))
            return
        }
        var table = TextTable(columns: [.init("N", alignment: .right), .init("NAME"), .init("SIZE")])
        for (sample, header) in rows {
            table.append(["\(sample.number)", sample.name, header.map { "\($0.width)x\($0.height)" } ?? "?"])
        }
        context.console.raw(table.render() + "\n")
        context.console.out("Post one with: snapshare post --feed NAME --sample N   (see one: snapshare samples show N)")
    }

    private static func show(_ context: CommandContext, _ number: String) throws(ClientError) {
        let sample = try SampleLibrary.sample(numberText: number)
        let bytes = try sample.bytes()
        try ImageDisplay.show(
            bytes: bytes, context: context, title: "Sample \(sample.number): \(sample.name)",
            caption: "sample \(sample.number) \(sample.name)")
    }
}
