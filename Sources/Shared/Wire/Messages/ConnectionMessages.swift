/// Client → server, first frame on every connection.
public struct Hello: WireMessage, Equatable {
    public static let type = MessageType.hello
    public var magic: [UInt8]
    public var minVersion: UInt16
    public var maxVersion: UInt16
    public var clientName: String

    public init(
        magic: [UInt8] = ProtocolConstants.magic, minVersion: UInt16 = ProtocolConstants.versions.lowerBound,
        maxVersion: UInt16 = ProtocolConstants.versions.upperBound, clientName: String
    ) {
        self.magic = magic
        self.minVersion = minVersion
        self.maxVersion = maxVersion
        self.clientName = clientName
    }

    public init(from r: inout ByteReader) throws(WireError) {
        magic = try r.readRaw(8, "magic")
        minVersion = try r.readUInt16("min_version")
        maxVersion = try r.readUInt16("max_version")
        clientName = try r.readString("client_name", maxBytes: FieldLimits.clientName)
    }

    public func encode(into w: inout ByteWriter) {
        w.writeRaw(magic)
        w.write(minVersion)
        w.write(maxVersion)
        w.write(clientName)
    }
}

/// Server → client, the answer to Hello: the chosen version and the limits the server enforces.
public struct Welcome: WireMessage, Equatable {
    public static let type = MessageType.welcome
    public var version: UInt16
    public var serverName: String
    /// Largest payload accepted after login.
    public var maxFrameBytes: UInt32
    /// Largest payload accepted before login.
    public var maxFrameBytesBeforeLogin: UInt32
    public var maxRequestsInFlight: UInt16
    public var maxImageBytes: UInt32
    public var maxImageDimension: UInt32
    public var maxImagePixels: UInt32
    public var idleTimeoutSeconds: UInt32
    public var serverTime: Int64

    public init(
        version: UInt16, serverName: String, maxFrameBytes: UInt32, maxFrameBytesBeforeLogin: UInt32,
        maxRequestsInFlight: UInt16, maxImageBytes: UInt32, maxImageDimension: UInt32,
        maxImagePixels: UInt32, idleTimeoutSeconds: UInt32, serverTime: Int64
    ) {
        self.version = version
        self.serverName = serverName
        self.maxFrameBytes = maxFrameBytes
        self.maxFrameBytesBeforeLogin = maxFrameBytesBeforeLogin
        self.maxRequestsInFlight = maxRequestsInFlight
        self.maxImageBytes = maxImageBytes
        self.maxImageDimension = maxImageDimension
        self.maxImagePixels = maxImagePixels
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.serverTime = serverTime
    }

    public init(from r: inout ByteReader) throws(WireError) {
        version = try r.readUInt16("version")
        serverName = try r.readString("server_name", maxBytes: FieldLimits.clientName)
        maxFrameBytes = try r.readUInt32("max_frame_bytes")
        maxFrameBytesBeforeLogin = try r.readUInt32("max_frame_bytes_before_login")
        maxRequestsInFlight = try r.readUInt16("max_requests_in_flight")
        maxImageBytes = try r.readUInt32("max_image_bytes")
        maxImageDimension = try r.readUInt32("max_image_dimension")
        maxImagePixels = try r.readUInt32("max_image_pixels")
        idleTimeoutSeconds = try r.readUInt32("idle_timeout_seconds")
        serverTime = try r.readInt64("server_time")
    }

    public func encode(into w: inout ByteWriter) {
        w.write(version)
        w.write(serverName)
        w.write(maxFrameBytes)
        w.write(maxFrameBytesBeforeLogin)
        w.write(maxRequestsInFlight)
        w.write(maxImageBytes)
        w.write(maxImageDimension)
        w.write(maxImagePixels)
        w.write(idleTimeoutSeconds)
        w.write(serverTime)
    }
}

/// Server → client: a request failed (`fatal` false) or the connection is ending (`fatal` true).
public struct ErrorMessage: WireMessage, Equatable, Error {
    public static let type = MessageType.error
    public var code: ErrorCode
    public var fatal: Bool
    public var message: String

    public init(code: ErrorCode, fatal: Bool? = nil, message: String) {
        self.code = code
        self.fatal = fatal ?? code.isProtocolError
        self.message = message.truncatedToUTF8Count(FieldLimits.errorMessage)
    }

    public init(from r: inout ByteReader) throws(WireError) {
        code = ErrorCode(rawValue: try r.readUInt16("code"))
        fatal = try r.readBool("fatal")
        message = try r.readString("message", maxBytes: FieldLimits.errorMessage)
    }

    /// A code newer than the writer's protocol version is written as the one that version had.
    public func encode(into w: inout ByteWriter) {
        w.write(code.spoken(in: w.protocolVersion).rawValue)
        w.write(fatal)
        w.write(message)
    }
}

/// A message with an empty payload.
public protocol EmptyWireMessage: WireMessage { init() }

extension EmptyWireMessage {
    public init(from r: inout ByteReader) throws(WireError) { self.init() }
    public func encode(into w: inout ByteWriter) {}
}

/// Client → server keep-alive; answered by Pong.
public struct Ping: EmptyWireMessage, Equatable {
    public static let type = MessageType.ping
    public init() {}
}
/// Server → client answer to Ping.
public struct Pong: EmptyWireMessage, Equatable {
    public static let type = MessageType.pong
    public init() {}
}
/// Server → client success with nothing to return.
public struct Ok: EmptyWireMessage, Equatable {
    public static let type = MessageType.ok
    public init() {}
}
