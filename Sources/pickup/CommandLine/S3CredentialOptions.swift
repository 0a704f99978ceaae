import ArgumentParser
import PickupUpload

/// Where S3 credentials come from, for `pickup upload` and for resuming or cancelling later:
/// the environment, else the profile of ~/.aws, a named profile, or a file.
/// Credentials are never stored in the journal, so each command finds them again.
struct S3CredentialOptions: ParsableArguments {
    @Option(
        name: [.customLong("profile")],
        help: ArgumentHelp(
            "The profile of ~/.aws/credentials and ~/.aws/config to read (default AWS_PROFILE, else default).",
            valueName: "NAME"))
    var profile: String?

    @Option(
        name: [.customLong("credentials")],
        help: ArgumentHelp(
            "Read AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION from FILE (KEY=value lines), not the environment or ~/.aws.",
            valueName: "FILE"),
        completion: .file())
    var credentials: String?

    /// The credentials these options name; nil when none are found (an S3 upload then fails
    /// saying so).
    func resolved() throws(ValidationError) -> S3Credentials? {
        if let credentials { return try UploadJob.credentials(file: credentials) }
        return AWSConfiguration.load(profile: profile).credentials
    }
}
