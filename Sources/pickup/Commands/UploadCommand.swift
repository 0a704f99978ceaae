import ArgumentParser
import Foundation
import Pickup
import PickupCommandLine
import PickupHTTP
import PickupImport
import PickupStore
import PickupUpload

/// `pickup upload`: sends files to a server, resumably.
struct UploadCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract:
            "Upload photos and videos (tus, S3 multipart, form POST); resumable after lost connections and killed processes.",
        discussion: """
            Each upload is recorded in the journal with the bytes the server has confirmed. A dropped \
            connection is retried with exponential backoff and jitter, asking the server where to go on; \
            an upload the server forgot starts over; a killed process is resumed with \
            'pickup uploads resume'. S3 uploads are multipart: parts planned for the file (5 MiB at least, \
            10,000 at most), each part's SHA-256 signed so the store checks it, ListParts to resume. \
            A form upload is one multipart/form-data POST streamed from the file; a failed try sends \
            it again whole. PICKUP_UPLOAD_AUTHORIZATION, when set, is sent as the Authorization header \
            to tus and form servers, as are the lines of PICKUP_UPLOAD_HEADERS ('NAME: VALUE' a line) \
            and -H headers; -H @FILE reads such lines from a file, which keeps a secret off the command \
            line (other users can read it). A header with a control character (a token file's CR, \
            say) is refused before anything is sent, naming the header, never its value. \
            S3 credentials come from the environment, else \
            from ~/.aws/credentials and ~/.aws/config (AWS_PROFILE or --profile), as the AWS CLI finds \
            them. Credentials and signed URLs never reach the journal or the output. \
            A file whose bytes (size and SHA-256) the journal has already sent to the same destination \
            is not sent again ("already there"; --check asks the server first, --force sends it). \
            Running the same upload again after Ctrl-C or a failure goes on from the server's offset \
            (a form's is sent whole again as the same upload, with the same Idempotency-Key). \
            Every retry is shown as it happens. \
            On a terminal, a progress bar shows the total; Ctrl-C pauses every upload (resumable).

            Exit status: 0 when every file arrived, 1 when any did not, 2 for a usage mistake, 130 when \
            interrupted (Ctrl-C; 143 for SIGTERM, which pauses the same way: the uploads stay resumable).
            """
                + Examples.text([
                    "pickup upload IMG_0001.MOV --to tus+https://uploads.example.com/files -H @auth-header.txt",
                    "pickup upload -r DCIM --to s3://photos/2026/ --profile backup --part-concurrency 8",
                    "pickup upload -r DCIM --to s3://photos/2026/ --key '{date}/{name}' --dry-run",
                    "pickup upload Library/*.HEIC --to tus+http://127.0.0.1:1080/files/ --parallel 4 --json",
                    "AWS_ACCESS_KEY_ID=... AWS_SECRET_ACCESS_KEY=... pickup upload clip.mp4 --to s3://photos/2026/ --endpoint http://127.0.0.1:8333",
                    "pickup upload 3f9a1c0b2d4e --library ~/Pictures/Picked --to https://example.com/upload --form-field album=trip",
                ]))

    @Argument(
        help: ArgumentHelp(
            "FILE: Files to upload, streamed from disk. DIR: With --recursive: the photos and videos below the folder, with their .AAE edits (S3 keys keep the path inside it). ITEM: With --library: the id of an imported item (a Live Photo sends its still and its movie).",
            valueName: "FILE"))
    var arguments: [String] = []

    @Option(
        name: [.customLong("to")],
        help: ArgumentHelp(
            "A tus endpoint (tus+https://uploads.example.com/files), an S3 bucket and key prefix (s3://photos/2026/), or a web form's URL (https://example.com/upload).",
            valueName: "TARGET"))
    var to: String?

    @Flag(
        name: [.customLong("recursive"), .customShort("r")],
        help:
            "Upload the photos and videos in the folders named, and below them; other files and hidden files are left alone."
    )
    var recursive = false

    @Option(
        name: [.customLong("header"), .customShort("H")],
        help: ArgumentHelp(
            "A request header for tus and form servers (an Authorization, say); repeat for more. Never stored. "
                + "@FILE: the 'NAME: VALUE' lines of FILE, off the command line that other users can see.",
            valueName: "'NAME: VALUE'|@FILE"))
    var header: [String] = []

    @Option(
        name: [.customLong("library")],
        help: ArgumentHelp(
            "A library made by 'pickup import': arguments that are not files are its item ids.", valueName: "DIR"))
    var library: String?

    @Option(
        name: [.customLong("endpoint")],
        help: ArgumentHelp(
            "The S3-compatible store, e.g. http://127.0.0.1:8333 (default: AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, the profile's endpoint_url, else AWS in the region).",
            valueName: "URL"))
    var endpoint: String?

    @OptionGroup var s3: S3CredentialOptions

    @Option(
        name: [.customLong("export")],
        help: ArgumentHelp(
            "Export videos first (as 'pickup export --preset'); photos go as they are.", valueName: "PRESET"))
    var export: String?

    @Flag(
        name: [.customLong("strip-location")],
        help: ArgumentHelp(
            "Send a copy whose metadata keeps only the date and orientation, in every format (SECURITY.md): "
                + "videos re-muxed, photos rewritten; a file that cannot be cleaned is held back, not sent.")
    )
    var stripLocation = false

    @Option(
        name: [.customLong("field")],
        help: ArgumentHelp("Form uploads: the field that carries the file.", valueName: "NAME"))
    var field = "file"

    @Option(
        name: [.customLong("form-field")],
        help: ArgumentHelp(
            "Form uploads: another field sent before the file; repeat for more.", valueName: "NAME=VALUE"))
    var formField: [String] = []

    @OptionGroup var formKey: FormKeyOption

    @Option(
        name: [.customLong("metadata")],
        help: ArgumentHelp(
            "tus uploads: a key and value sent in Upload-Metadata beside the file's name and type (an album, a user's id); repeat for more. Kept in the journal for a resume.",
            valueName: "KEY=VALUE"))
    var metadata: [String] = []

    @Option(
        name: [.customLong("key")],
        help: ArgumentHelp(
            "S3: each object's key after the prefix; also {name}, {stem}, {ext} (no dot), {date}, {id}, {sha256}.",
            valueName: "TEMPLATE"))
    var key = "{relpath}"

    // 8: where round trips decide (a phone's link, 40 ms), 2 files in flight left the link idle
    // most of the time; 8 met every many-files target and 16 added nothing (BENCHMARKS.md, "A
    // camera roll over a phone's link").
    @Option(
        name: [.customLong("parallel")],
        help: ArgumentHelp("Files uploaded at once, 1 to 32 (many small files fill a distant link).", valueName: "N"))
    var parallel = 8

    @Option(
        name: [.customLong("part-concurrency")],
        help: ArgumentHelp(
            "S3: parts of one file in flight at once (1 to 64), a new one as soon as one arrives, as aws s3 cp does; beyond the first, only on connections other files leave free.",
            valueName: "N"))
    var partConcurrency = 4

    @Option(
        name: [.customLong("multipart-threshold")],
        help: ArgumentHelp(
            "S3: files smaller than this many megabytes go in one PUT, larger ones in parts (as aws s3 cp; 0: always in parts; at most 5120).",
            valueName: "MB"))
    var multipartThreshold = DecimalValue(8)

    @Option(
        name: [.customLong("chunk-size")],
        help: ArgumentHelp(
            "Megabytes a request, 0.0625 to 1024: every tus chunk and S3 part this size (S3 parts at least 5). Default: 8, and tus chunks double up to 64 while the server takes each whole in under 5 s.",
            valueName: "MB"))
    var chunkSize: DecimalValue?

    @Option(
        name: [.customLong("retries")],
        help: ArgumentHelp(
            "Failures in a row, without the server gaining bytes, before an upload fails (0 to 100).", valueName: "N"))
    var retries = 7

    @Option(
        name: [.customLong("timeout")],
        help: ArgumentHelp(
            "The longest a request may go without moving before it is retried, 1 to 3600 (a link that was moving is judged by its own pace, within seconds).",
            valueName: "SECONDS"))
    var timeout = DecimalValue(UploadOptions.defaultStallTimeout)

    @Flag(
        name: [.customLong("force")],
        help: ArgumentHelp(
            "Send a file even when the journal says the same bytes are already at that destination, or over "
                + "another file sent to its S3 key."))
    var force = false

    @Flag(
        name: [.customLong("check")],
        help:
            "Skip a file the journal says is already there only when the server still has it (tus and S3: HEAD; a web form cannot be asked)."
    )
    var check = false

    @Flag(
        name: [.customLong("dry-run")],
        help:
            "Say which files would be sent and where (S3 key, URL), which the journal says are already there, and which it would go on with; send nothing, change no journal."
    )
    var dryRun = false

    @OptionGroup var shared: JournalOptions

    @OptionGroup var trust: TrustOptions

    @OptionGroup var progress: ProgressOptions

    @OptionGroup var fileList: FileListOptions

    func job() throws -> UploadJob { try UploadJob(self) }
}
