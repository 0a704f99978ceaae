/// What the camera picker is asked for, in UIImagePickerController's terms but
/// as plain values, and what to show when it cannot open.
public struct CameraOptions: Sendable, Hashable {
    /// What the camera takes.
    public enum Mode: String, Sendable, Hashable {
        /// Still photos.
        case photo
        /// Movies, with sound when the microphone is allowed.
        case video
    }

    /// The video quality, as UIImagePickerController's `videoQuality` names it.
    public enum Quality: String, Sendable, Hashable {
        /// The camera's best, the largest files.
        case high
        /// A medium size, for sharing.
        case medium
        /// The smallest files, for a slow uplink.
        case low
        /// 640 × 480.
        case vga640x480
        /// 1280 × 720.
        case hd1280x720
        /// 1920 × 1080.
        case hd1920x1080
    }

    /// The flash.
    public enum Flash: String, Sendable, Hashable {
        /// The camera decides.
        case auto
        /// Always fired.
        case on
        /// Never fired.
        case off
    }

    /// Which camera opens first.
    public enum Device: String, Sendable, Hashable {
        /// The camera on the back.
        case rear
        /// The camera facing the person (selfies).
        case front
    }

    /// Photo or video.
    public var mode: Mode
    /// The video quality (ignored for photos).
    public var quality: Quality
    /// Seconds (video); UIImagePickerController's default is 10 minutes.
    public var maximumDuration: Double
    /// The flash mode the camera opens with.
    public var flash: Flash
    /// The camera that opens first.
    public var device: Device
    /// Whether the system's crop and trim screen follows the capture.
    public var allowsEditing: Bool

    /// Options for the camera picker; by default, a photo from the rear camera with the flash on auto.
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
    /// The camera can open now.
    case ready
    /// No camera (the simulator, some iPads), or it cannot take this kind of media.
    case unavailable(String)
    /// The person said no, or a device policy does; Settings can change it.
    case denied(String)
    /// The person has not been asked yet: asking comes first.
    case mustAsk

    /// The app's camera permission, as AVCaptureDevice reports it.
    public enum Permission: Sendable, Hashable {
        /// Not asked yet.
        case notDetermined
        /// Allowed.
        case authorized
        /// Refused by the person.
        case denied
        /// Refused by a device policy (Screen Time, management).
        case restricted
    }

    /// The Info.plist keys the camera needs: without the first the system ends the app when the
    /// camera is asked for, without the second when a video asks for the microphone.
    public static let usageKeys: Set<String> = ["NSCameraUsageDescription", "NSMicrophoneUsageDescription"]

    /// Decides from what UIImagePickerController and AVCaptureDevice report, and which usage
    /// descriptions the app's Info.plist has (`declaredKeys`).
    public static func decide(
        sourceAvailable: Bool, availableMediaTypes: [String], permission: Permission, options: CameraOptions,
        needsMicrophone: Bool = false, microphone: Permission = .authorized, declaredKeys: Set<String> = usageKeys
    ) -> CameraAvailability {
        guard sourceAvailable else { return .unavailable("This device has no camera.") }
        guard availableMediaTypes.contains(options.mediaType) else {
            return .unavailable(
                options.mode == .video ? "This camera cannot record video." : "This camera cannot take photos.")
        }
        // Asked for without its usage description, the camera or the microphone ends the app:
        // Apple's documentation of NSCameraUsageDescription, "This key is required if your app
        // uses APIs that access the device's camera" (and of NSMicrophoneUsageDescription, the
        // microphone's). A picker that cannot open says so, to the developer first.
        guard declaredKeys.contains("NSCameraUsageDescription") else {
            return .unavailable("This app cannot use the camera (its Info.plist has no NSCameraUsageDescription).")
        }
        if options.mode == .video, !declaredKeys.contains("NSMicrophoneUsageDescription") {
            return .unavailable(
                "This app cannot record video (its Info.plist has no NSMicrophoneUsageDescription).")
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
    /// Each key, with the feature that needs it.
    public static let all: [(key: String, when: String)] = [
        ("NSCameraUsageDescription", "the camera picker (photo or video), and the avatar picker's Take Photo"),
        ("NSMicrophoneUsageDescription", "the camera picker recording video with sound"),
        (
            "NSPhotoLibraryUsageDescription",
            "keeping Live Photos' movies (LivePhotoMotion.pair, the default): Pickup asks for no access, "
                + "but Apple does not document whether reading a picked Live Photo's resources can prompt; "
                + "without the key the movie is not read and the still is kept"
        ),
        (
            "NSPhotoLibraryAddUsageDescription",
            "only an app that saves captures to the library itself (Pickup never does)"
        ),
    ]
}

/// What the camera records and what its movie is then exported to, for a quality asked for.
///
/// `UIImagePickerController.QualityType.typeIFrame1280x720` is an intra-frame editing format
/// (every frame a keyframe, some ten times the size of an ordinary 720p clip), so a size is
/// never asked of the camera: it records `.typeHigh` (or the plain low, medium and VGA types)
/// and the movie is exported to the size asked.
public struct CameraRecordingPlan: Sendable, Hashable {
    /// The `UIImagePickerController.QualityType` to record with.
    public enum Recording: String, Sendable, Hashable {
        /// `.typeHigh`.
        case high
        /// `.typeMedium`.
        case medium
        /// `.typeLow`.
        case low
        /// `.type640x480`.
        case vga640x480
    }

    /// What the camera records.
    public var recording: Recording
    /// The export that makes the size asked for (nil: the recording is kept as it is).
    public var export: ExportPreset?

    /// The plan for `quality`.
    public init(_ quality: CameraOptions.Quality) {
        switch quality {
        case .high: (recording, export) = (.high, nil)
        case .medium: (recording, export) = (.medium, nil)
        case .low: (recording, export) = (.low, nil)
        case .vga640x480: (recording, export) = (.vga640x480, nil)
        case .hd1280x720: (recording, export) = (.high, .p1280x720)
        case .hd1920x1080: (recording, export) = (.high, .p1920x1080)
        }
    }
}
