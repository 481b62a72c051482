/// camera --list.
enum CameraCommands {
    static func list(_ context: CommandContext) throws(ClientError) {
        let cameras = try CameraList.cameras()
        if context.json {
            context.printJSON(.array(cameras.map { .object([("device", .string($0.device)), ("name", .string($0.name))]) }))
            return
        }
        guard !cameras.isEmpty else {
            context.console.out("No camera found. Without one, --camera-device lavfi:testsrc2=size=640x480:rate=15 reads FFmpeg's test picture.")
            return
        }
        var table = TextTable(columns: [.init("DEVICE"), .init("NAME")])
        for camera in cameras { table.append([camera.device, camera.name]) }
        context.console.raw(table.render())
        context.console.out("\(cameras.count) camera\(cameras.count == 1 ? "" : "s"); post --camera uses \(CameraDevice.platformDefault) unless --camera-device names another.")
    }
}
