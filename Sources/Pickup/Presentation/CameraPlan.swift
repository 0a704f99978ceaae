/// What the camera picker is asked for, in UIImagePickerController's terms but
/// as plain values, and what to show when it cannot open.
public struct CameraOptions: Sendable, Hashable {
    public enum Mode: String, Sendable, Hashable { case photo, video }
    public enum Quality: String, Sendable, Hashable { case high, medium, low, vga640x480, hd1280x720, hd1920x1080 }
    public enum Flash: String, Sendable, Hashable { case auto, on, off }
    public enum Device: String, Sendable, Hashable { case rear, front }

    public var mode: Mode
    public var quality: Quality
    /// Seconds (video); UIImagePickerController's default is 10 minutes.
    public var maximumDuration: Double
    public var flash: Flash
    public var device: Device
    public var allowsEditing: Bool

    public init(
        mode: Mode = .photo, quality: Quality = .high, maximumDuration: Double = 600, flash: Flash = .auto,
        device: Device = .rear, allowsEditing: Bool = false
    ) {
        self.mode = mode
        self.quality = quality
        self.maximumDuration = max(1, maximumDuration)
        self.flash = flash
        self.device = device
        self.allowsEditing = allowsEditing
    }

    /// The media type identifier the picker must offer (`public.image` or `public.movie`).
    public var mediaType: String { mode == .photo ? "public.image" : "public.movie" }
}

/// Whether the camera can open, and if not, what the person is told.
public enum CameraAvailability: Sendable, Hashable {
    case ready
    /// No camera (the simulator, some iPads), or it cannot take this kind of media.
    case unavailable(String)
    /// The person said no, or a device policy does; Settings can change it.
    case denied(String)
    /// The person has not been asked yet: asking comes first.
    case mustAsk

    public enum Permission: Sendable, Hashable { case notDetermined, authorized, denied, restricted }

    /// Decides from what UIImagePickerController and AVCaptureDevice report.
    public static func decide(
        sourceAvailable: Bool, availableMediaTypes: [String], permission: Permission, options: CameraOptions,
        needsMicrophone: Bool = false, microphone: Permission = .authorized
    ) -> CameraAvailability {
        guard sourceAvailable else { return .unavailable("This device has no camera.") }
        guard availableMediaTypes.contains(options.mediaType) else {
            return .unavailable(
                options.mode == .video ? "This camera cannot record video." : "This camera cannot take photos.")
        }
        switch permission {
        case .notDetermined: return .mustAsk
        case .denied:
            return .denied("Camera access is off. Turn it on in Settings › Privacy & Security › Camera.")
        case .restricted:
            return .denied("Camera access is restricted on this device (Screen Time or a device profile).")
        case .authorized: break
        }
        if needsMicrophone, options.mode == .video, microphone == .denied || microphone == .restricted {
            return .denied(
                "Microphone access is off, so videos would have no sound. Turn it on in Settings › Privacy & Security › Microphone."
            )
        }
        return .ready
    }
}

/// The Info.plist keys an app using Pickup's pickers must have, and why.
public enum InfoPlistKeys {
    public static let all: [(key: String, when: String)] = [
        ("NSCameraUsageDescription", "the camera picker (photo or video)"),
        ("NSMicrophoneUsageDescription", "the camera picker recording video with sound"),
        (
            "NSPhotoLibraryUsageDescription",
            "Live Photo pairs and iCloud downloads through PHAsset (full or limited access)"
        ),
        ("NSPhotoLibraryAddUsageDescription", "saving captured media to the library (optional)"),
    ]
}
