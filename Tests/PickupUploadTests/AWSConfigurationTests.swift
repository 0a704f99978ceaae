import Foundation
import PickupTestSupport
import PickupUpload
import Testing

@Suite("S3 settings found as the AWS CLI finds them")
struct AWSConfigurationTests {
    func home(credentials: String, config: String) throws -> String {
        let folder = try Temporary.folder("aws", inside: ".aws")
        try credentials.write(toFile: folder + "/.aws/credentials", atomically: true, encoding: .utf8)
        try config.write(toFile: folder + "/.aws/config", atomically: true, encoding: .utf8)
        return folder
    }

    @Test func theProfileOfBothFilesGivesKeysRegionAndEndpoint() throws {
        let home = try home(
            credentials: "[default]\naws_access_key_id = A\naws_secret_access_key = B\n\n[work]\n"
                + "aws_access_key_id=C\naws_secret_access_key=D\naws_session_token = T\n",
            config: "[default]\nregion = us-west-2\n\n[profile work]\nregion = eu-central-1\ns3 =\n"
                + "  endpoint_url = http://127.0.0.1:8333\n")
        defer { Temporary.remove(home) }
        let work = AWSConfiguration.load(environment: ["HOME": home, "AWS_PROFILE": "work"])
        #expect(work.credentials?.accessKey == "C" && work.credentials?.secretKey == "D")
        #expect(work.credentials?.sessionToken == "T")
        #expect(work.region == "eu-central-1" && work.credentials?.region == "eu-central-1")
        #expect(work.endpoint?.absoluteString == "http://127.0.0.1:8333")
        let plain = AWSConfiguration.load(environment: ["HOME": home])
        #expect(plain.credentials?.accessKey == "A" && plain.region == "us-west-2" && plain.endpoint == nil)
        #expect(AWSConfiguration.load(profile: "work", environment: ["HOME": home]).credentials?.accessKey == "C")
    }

    @Test func theEnvironmentComesFirstAndItsKeysGoTogether() throws {
        let home = try home(
            credentials: "[default]\naws_access_key_id = A\naws_secret_access_key = B\n",
            config: "[default]\nregion = us-west-2\n")
        defer { Temporary.remove(home) }
        let found = AWSConfiguration.load(environment: [
            "HOME": home, "AWS_ACCESS_KEY_ID": "E", "AWS_SECRET_ACCESS_KEY": "F", "AWS_REGION": "ap-south-1",
            "AWS_ENDPOINT_URL": "http://127.0.0.1:9000",
        ])
        #expect(found.credentials?.accessKey == "E" && found.credentials?.secretKey == "F")
        #expect(found.region == "ap-south-1")
        #expect(found.endpoint?.absoluteString == "http://127.0.0.1:9000")
        // A key id alone in the environment does not pair with the file's secret.
        let half = AWSConfiguration.load(environment: ["HOME": home, "AWS_ACCESS_KEY_ID": "E"])
        #expect(half.credentials?.accessKey == "A" && half.credentials?.secretKey == "B")
    }

    @Test func noFilesNoKeys() {
        let found = AWSConfiguration.load(environment: ["HOME": "/nonexistent"])
        #expect(found.credentials == nil && found.region == "us-east-1" && found.sources.isEmpty)
    }

    @Test(
        "region names are checked as the AWS CLI checks them before they go into a host name",
        arguments: [
            ("us-east-1", true), ("eu-central-1", true), ("cn-north-1", true), ("us-gov-west-1", true), ("x", true),
            ("x@127.0.0.1:8080/", false), ("us-east-1.evil.com", false), ("-us", false), ("us-", false), ("", false),
            ("123", false), ("us east", false), ("us-east-1\n", false), (String(repeating: "a", count: 64), false),
        ])
    func regions(region: String, valid: Bool) {
        #expect(AWSConfiguration.isValidRegion(region) == valid)
        #expect((AWSConfiguration.awsEndpoint(region: region) != nil) == valid)
        if valid { #expect(AWSConfiguration.awsEndpoint(region: region)?.host == "s3.\(region).amazonaws.com") }
    }
}
