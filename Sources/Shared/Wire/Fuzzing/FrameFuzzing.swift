/// The properties the frame fuzzer checks, callable from tests (to replay a corpus) and from
/// the libFuzzer harness.
public enum FrameFuzzing {
    static let limit: UInt32 = 64 * 1024

    /// Feeds `bytes` to a decoder in small chunks and checks the decoding properties; traps
    /// (precondition) when one fails, which is what a fuzzer needs.
    public static func check(_ bytes: [UInt8]) {
        var decoder = FrameDecoder(maxPayload: limit)
        var consumed = 0
        var offset = 0
        var chunk = 1
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunk)
            decoder.append(bytes[offset..<end])
            offset = end
            chunk = chunk % 17 + 1
            while true {
                let frame: Frame?
                do { frame = try decoder.nextFrame() } catch { return }
                guard let frame else { break }
                let encoded = frame.encoded()
                precondition(Array(bytes[consumed..<(consumed + encoded.count)]) == encoded, "frame does not re-encode")
                consumed += encoded.count
                checkMessage(frame)
            }
            precondition(decoder.bufferedByteCount <= Int(limit) + FrameHeader.size + 17, "decoder buffered too much")
        }
    }

    /// Decodes the payload as its type's message (if known) and checks it re-encodes exactly.
    static func checkMessage(_ frame: Frame) {
        func roundTrip<M: WireMessage>(_ type: M.Type) {
            guard let message = try? frame.decode(M.self) else { return }
            precondition(Frame(message, requestID: frame.requestID) == frame, "\(M.type.name) does not re-encode")
        }
        for type in decodable where type.type.rawValue == frame.type { roundTrip(type) }
    }

    /// Every message type with its Swift type.
    static let decodable: [any WireMessage.Type] = [
        Hello.self, Welcome.self, ErrorMessage.self, Ping.self, Pong.self, Ok.self,
        Register.self, Login.self, Resume.self, Authenticated.self, Logout.self, WhoAmI.self,
        ListFeeds.self, Feeds.self, ListSnaps.self, Snaps.self, Poll.self, PollResult.self,
        PostSnap.self, SnapPosted.self, OpenSnap.self, SnapImage.self, GetSnapViews.self, SnapViews.self,
        AdminCreateFeed.self, AdminDeleteFeed.self, AdminResetFeeds.self, Count.self, AdminDeleteSnap.self,
        AdminRestoreView.self, AdminListUsers.self, Users.self, AdminStats.self, Stats.self,
        AdminUnlock.self, AdminSetAdmin.self, AdminResetPassword.self, ChangePassword.self,
        LoginWithDevice.self, IssueDeviceToken.self, DeviceToken.self, AdminUnlockAddress.self, AdminAuditLog.self, AuditLog.self,
        AdminPurge.self, AdminExportSnaps.self, ExportedSnaps.self, AdminViewSnap.self,
        ReportSnap.self, UnsendSnap.self, AdminListReports.self, Reports.self, AdminResolveReport.self, AdminSuspend.self,
        AdminUnsuspend.self,
        AdminSetDisabled.self, AdminRenameUser.self, AdminDeleteUser.self,
        AdminListPending.self, PendingSnaps.self, AdminApproveSnap.self, AdminListRoster.self, Roster.self, AdminRemoveRosterEntry.self,
        AddPin.self, PinResult.self, ListPins.self, Pins.self, DeletePin.self, GetAlbum.self, Album.self,
        NewCollection.self, GetPhoto.self, PhotoImage.self, DeletePhoto.self, RandomPin.self, RandomPinResult.self,
        GetMapState.self, MapState.self, SetMapState.self,
        AddMovie.self, MovieResult.self, DeleteMovie.self, FindMovie.self, SetMovieSales.self, ListMovies.self, Movies.self,
        UpdateMovie.self,
        ListClasses.self, Classes.self, UseClass.self, JoinClass.self, ClassChosen.self, AdminListMembers.self, Members.self,
        AdminSetRole.self, AdminRemoveMember.self,
    ]
}
