/// camera --list.
enum CameraCommands {
    static func list(_ context: CommandContext) throws(ClientError) {
        let cameras = try CameraList.cameras()
        if context.json {
            context.printJSON(.array(cameras.map { .object([("device", .string($0.device)), ("name", .string($0.name))]) }))
            return
        }
        guard !cameras.isEmpty else {
            context.console.out(
                "No camera found. Without one, --camera-device lavfi:testsrc2=size=640x480:rate=15 reads FFmpeg's test picture.")
            return
        }
        var table = TextTable(columns: [.init("DEVICE"), .init("NAME")])
        for camera in cameras { table.append([camera.device, camera.name]) }
        context.console.raw(table.render())
        let inUse = try CameraDevice.parse(context.environment["SNAPSHARE_CAMERA"].flatMap { $0.isEmpty ? nil : $0 })
        let why = context.environment["SNAPSHARE_CAMERA"].map { $0.isEmpty ? "" : " (from $SNAPSHARE_CAMERA)" } ?? ""
        context.console.out(
            "\(cameras.count) camera\(cameras.count == 1 ? "" : "s"); "
                + "post --camera uses \(inUse)\(why) unless --camera-device names another."
        )
    }
}
