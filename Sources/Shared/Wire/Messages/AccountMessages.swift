/// Client → server: create an account and log in.
public struct Register: WireMessage, Equatable {
    public static let type = MessageType.register
    public var username: String
    public var password: String
    public var classCode: String

    public init(username: String, password: String, classCode: String) {
        self.username = username
        self.password = password
        self.classCode = classCode
    }

    public init(from r: inout ByteReader) throws(WireError) {
        username = try r.readString("username", maxBytes: FieldLimits.username)
        password = try r.readString("password", maxBytes: FieldLimits.password)
        classCode = try r.readString("class_code", maxBytes: FieldLimits.classCode)
    }

    public func encode(into w: inout ByteWriter) {
        w.write(username)
        w.write(password)
        w.write(classCode)
    }
}

/// Client → server: log in with a password; answered by Authenticated with a new token.
public struct Login: WireMessage, Equatable {
    public static let type = MessageType.login
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    public init(from r: inout ByteReader) throws(WireError) {
        username = try r.readString("username", maxBytes: FieldLimits.username)
        password = try r.readString("password", maxBytes: FieldLimits.password)
    }

    public func encode(into w: inout ByteWriter) {
        w.write(username)
        w.write(password)
    }
}

/// Client → server: authenticate this connection with a session token from an earlier login.
public struct Resume: WireMessage, Equatable {
    public static let type = MessageType.resume
    public var token: String

    public init(token: String) { self.token = token }
    public init(from r: inout ByteReader) throws(WireError) { token = try r.readString("token", maxBytes: FieldLimits.token) }
    public func encode(into w: inout ByteWriter) { w.write(token) }
}

/// Server → client: who this connection is logged in as. `token` is set only by Register and
/// Login (a new session); it is empty for Resume and WhoAmI.
public struct Authenticated: WireMessage, Equatable {
    public static let type = MessageType.authenticated
    public var token: String
    public var username: String
    public var isAdmin: Bool
    public var createdAt: Int64

    public init(token: String, username: String, isAdmin: Bool, createdAt: Int64) {
        self.token = token
        self.username = username
        self.isAdmin = isAdmin
        self.createdAt = createdAt
    }

    public init(from r: inout ByteReader) throws(WireError) {
        token = try r.readString("token", maxBytes: FieldLimits.token)
        username = try r.readString("username", maxBytes: FieldLimits.username)
        isAdmin = try r.readBool("is_admin")
        createdAt = try r.readInt64("created_at")
    }

    public func encode(into w: inout ByteWriter) {
        w.write(token)
        w.write(username)
        w.write(isAdmin)
        w.write(createdAt)
    }
}

/// Client → server: end the session (the token stops working everywhere).
public struct Logout: EmptyWireMessage, Equatable {
    public static let type = MessageType.logout
    public init() {}
}
/// Client → server: who am I? Answered by Authenticated.
public struct WhoAmI: EmptyWireMessage, Equatable {
    public static let type = MessageType.whoAmI
    public init() {}
}

/// Client → server: change this user's password (the old one is checked, like a login). Every
/// other session of the user ends; this connection's session stays. Answered by Ok.
public struct ChangePassword: WireMessage, Equatable {
    public static let type = MessageType.changePassword
    public var oldPassword: String
    public var newPassword: String

    public init(oldPassword: String, newPassword: String) {
        self.oldPassword = oldPassword
        self.newPassword = newPassword
    }

    public init(from r: inout ByteReader) throws(WireError) {
        oldPassword = try r.readString("old_password", maxBytes: FieldLimits.password)
        newPassword = try r.readString("new_password", maxBytes: FieldLimits.password)
    }

    public func encode(into w: inout ByteWriter) {
        w.write(oldPassword)
        w.write(newPassword)
    }
}

/// Client → server: log in with a password from a device that logged in before, proving it
/// with the device token the server gave it then. A valid token for this user is judged by the
/// device's own failure budget, never by its address's (a class behind one address cannot lock
/// it out); any other token counts for nothing and the login is an ordinary one. Answered by
/// Authenticated, as Login is.
public struct LoginWithDevice: WireMessage, Equatable {
    public static let type = MessageType.loginWithDevice
    public var username: String
    public var password: String
    public var deviceToken: String

    public init(username: String, password: String, deviceToken: String) {
        self.username = username
        self.password = password
        self.deviceToken = deviceToken
    }

    public init(from r: inout ByteReader) throws(WireError) {
        username = try r.readString("username", maxBytes: FieldLimits.username)
        password = try r.readString("password", maxBytes: FieldLimits.password)
        deviceToken = try r.readString("device_token", maxBytes: FieldLimits.token)
    }

    public func encode(into w: inout ByteWriter) {
        w.write(username)
        w.write(password)
        w.write(deviceToken)
    }
}

/// Client → server: a device token for this user on this device, to present with later logins
/// (LoginWithDevice). Answered by DeviceToken.
public struct IssueDeviceToken: EmptyWireMessage, Equatable {
    public static let type = MessageType.issueDeviceToken
    public init() {}
}

/// Server → client: a new device token; a secret, kept by the client beside the user's session.
public struct DeviceToken: WireMessage, Equatable {
    public static let type = MessageType.deviceToken
    public var token: String

    public init(token: String) { self.token = token }
    public init(from r: inout ByteReader) throws(WireError) { token = try r.readString("token", maxBytes: FieldLimits.token) }
    public func encode(into w: inout ByteWriter) { w.write(token) }
}
