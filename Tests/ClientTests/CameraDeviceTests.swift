import Foundation
import TestSupport
import Testing

@testable import Client

@Suite struct CameraDeviceTests {
    @Test("--camera-device: none is /dev/video0, a number is /dev/videoN, a path is itself, lavfi:SPEC is a filter")
    func parse() throws {
        #expect(try CameraDevice.parse(nil) == .videoForLinux(path: "/dev/video0"))
        #expect(try CameraDevice.parse("2") == .videoForLinux(path: "/dev/video2"))
        #expect(try CameraDevice.parse("/dev/video5") == .videoForLinux(path: "/dev/video5"))
        #expect(try CameraDevice.parse("lavfi:testsrc2=size=320x240") == .filter(spec: "testsrc2=size=320x240"))
        #expect(CameraDevice.filter(spec: "smptebars").description == "lavfi:smptebars")
    }

    @Test("an empty name or an empty lavfi: spec is a usage error")
    func empty() {
        for text in ["", "lavfi:"] {
            let error = #expect(throws: ClientError.self, "\(text)") { try CameraDevice.parse(text) }
            #expect(error?.kind == .usage, "\(text)")
        }
    }

    @Test("FFmpeg reads a filter at its own rate (-re), a device with v4l2, and writes PPM no larger than 640x480 to standard output")
    func ffmpegArguments() {
        let filter = CameraDevice.filter(spec: "testsrc2").ffmpegArguments
        #expect(filter.contains("-re"))
        #expect(Array(filter.drop { $0 != "-f" }.prefix(4)) == ["-f", "lavfi", "-i", "testsrc2"])
        let device = CameraDevice.videoForLinux(path: "/dev/video3").ffmpegArguments
        #expect(!device.contains("-re"))
        #expect(Array(device.drop { $0 != "-f" }.prefix(2)) == ["-f", "v4l2"])
        #expect(Array(device.drop { $0 != "-i" }.prefix(2)) == ["-i", "/dev/video3"])
        for arguments in [filter, device] {
            #expect(Array(arguments.suffix(5)) == ["-f", "image2pipe", "-vcodec", "ppm", "-"])
            #expect(arguments.contains { $0.contains("min(640,iw)") && $0.contains("min(480,ih)") })
            #expect(arguments.contains("-nostdin"))
        }
    }

    @Test("SNAPSHARE_CAMERA_TIMEOUT sets the frame timeout, within 0.1 to 600 s; 10 s otherwise")
    func timeout() {
        #expect(CameraCapture.frameTimeout(environment: [:]) == 10)
        #expect(CameraCapture.frameTimeout(environment: ["SNAPSHARE_CAMERA_TIMEOUT": "2.5"]) == 2.5)
        #expect(CameraCapture.frameTimeout(environment: ["SNAPSHARE_CAMERA_TIMEOUT": "0"]) == 0.1)
        #expect(CameraCapture.frameTimeout(environment: ["SNAPSHARE_CAMERA_TIMEOUT": "99999"]) == 600)
        #expect(CameraCapture.frameTimeout(environment: ["SNAPSHARE_CAMERA_TIMEOUT": "soon"]) == 10)
    }
}

@Suite struct CameraFailureWordingTests {
    let camera = CameraDevice.videoForLinux(path: "/dev/video7")

    @Test("what FFmpeg said is worded for the student: no camera, busy, not permitted")
    func wording() {
        let cases: [(String, String)] = [
            (
                "[video4linux2,v4l2 @ 0x55d0c1a3f2c0] Cannot open video device /dev/video7: No such file or directory\n"
                    + "/dev/video7: No such file or directory\n",
                "no camera at /dev/video7: snapshare camera --list"
            ),
            (
                "[video4linux2,v4l2 @ 0x5581] ioctl(VIDIOC_STREAMON): Device or resource busy\n/dev/video7: Device or resource busy\n",
                "the camera /dev/video7 is busy: another program is using it"
            ),
            (
                "[video4linux2,v4l2 @ 0x5581] Cannot open video device /dev/video7: Permission denied\n/dev/video7: Permission denied\n",
                "not permitted to open /dev/video7: add yourself to the video group"
            ),
        ]
        for (stderr, expected) in cases {
            let error = CameraFailure.ended(camera, stderr: stderr, ending: "exit status 1", frames: 0)
            #expect(error.kind == .camera)
            #expect(error.message.hasPrefix(expected), "\(error.message)")
        }
    }

    @Test("anything else says how FFmpeg ended and its last line; FFmpeg missing and no frame in time say what to do")
    func otherwise() {
        let early = CameraFailure.ended(
            camera, stderr: "first\n  Invalid data found when processing input  \n\n", ending: "exit status 1", frames: 0)
        #expect(early.message == "FFmpeg could not read /dev/video7 (exit status 1): Invalid data found when processing input")
        let late = CameraFailure.ended(camera, stderr: "", ending: "exit status 0", frames: 1)
        #expect(late.message == "FFmpeg stopped reading /dev/video7 after 1 picture (exit status 0)")
        #expect(CameraFailure.noFFmpeg.message.contains("install ffmpeg to use the camera"))
        #expect(CameraFailure.noFrame(camera, seconds: 1).message.hasPrefix("no picture from /dev/video7 within 1 s"))
        #expect(CameraFailure.noFrame(camera, seconds: 0.5).message.contains("within 0.5 s"))
    }
}

@Suite struct CameraListTests {
    @Test("the video4linux folder: index-0 nodes in number order with their names; metadata nodes (index 1) and others left out")
    func sysfs() throws {
        let folder = TemporaryDirectory("sysfs")
        let nodes: [(String, String?, String?)] = [
            ("video10", "0", "Second Camera\n"), ("video0", "0", "Integrated Camera: Integrated C\n"),
            ("video1", "1", "Integrated Camera: Integrated C\n"), ("video2", nil, nil),
            ("v4l-subdev0", "0", "sensor\n"),
        ]
        for (node, index, name) in nodes {
            let path = folder.path + "/" + node
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            if let index { try index.write(toFile: path + "/index", atomically: true, encoding: .utf8) }
            if let name { try name.write(toFile: path + "/name", atomically: true, encoding: .utf8) }
        }
        #expect(
            CameraList.videoForLinuxCameras(sysfs: folder.path) == [
                .init(device: "/dev/video0", name: "Integrated Camera: Integrated C"),
                .init(device: "/dev/video2", name: "video2"),
                .init(device: "/dev/video10", name: "Second Camera"),
            ])
        #expect(CameraList.videoForLinuxCameras(sysfs: folder.path + "/none").isEmpty, "no folder: no cameras")
    }

    @Test("FFmpeg's AVFoundation listing gives the video devices, not the audio ones")
    func avFoundation() {
        let listing = """
            [AVFoundation indev @ 0x7f9b1c004a00] AVFoundation video devices:
            [AVFoundation indev @ 0x7f9b1c004a00] [0] FaceTime HD Camera
            [AVFoundation indev @ 0x7f9b1c004a00] [1] Capture screen 0
            [AVFoundation indev @ 0x7f9b1c004a00] AVFoundation audio devices:
            [AVFoundation indev @ 0x7f9b1c004a00] [0] MacBook Pro Microphone
            : Input/output error
            """
        #expect(
            CameraList.parseAVFoundation(listing) == [
                .init(device: "0", name: "FaceTime HD Camera"),
                .init(device: "1", name: "Capture screen 0"),
            ])
        #expect(CameraList.parseAVFoundation("").isEmpty)
    }
}
