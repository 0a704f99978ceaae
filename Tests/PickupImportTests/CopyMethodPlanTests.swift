import PickupImport
import Testing

@Suite("Which way a file is copied: clone, reflink or copy, decided from facts")
struct CopyMethodPlanTests {
    @Test(arguments: CopyMethodPlan.Platform.allCasesForTests, FileSystemKind.allCases)
    func method(platform: CopyMethodPlan.Platform, fileSystem: FileSystemKind) {
        for sameVolume in [true, false] {
            let plan = CopyMethodPlan(platform: platform, fileSystem: fileSystem, sameVolume: sameVolume)
            let expected: CopyMethod =
                switch (platform, fileSystem, sameVolume) {
                case (.apple, .apfs, true): .cloned
                case (.linux, .btrfs, true), (.linux, .xfs, true): .reflinked
                default: .copied
                }
            #expect(plan.method == expected, "\(platform) \(fileSystem) same volume: \(sameVolume)")
            #expect(plan.newBytes(forFileOf: 4 << 30) == (expected == .copied ? 4 << 30 : 0))
        }
    }

    @Test func onlyLinuxCopiesInTheKernel() {
        #expect(CopyMethodPlan(platform: .linux, fileSystem: .nfs, sameVolume: false).copiesInKernel)
        #expect(CopyMethodPlan(platform: .linux, fileSystem: .xfs, sameVolume: true).copiesInKernel)
        #expect(!CopyMethodPlan(platform: .linux, fileSystem: .other, sameVolume: true).copiesInKernel)
        #expect(!CopyMethodPlan(platform: .apple, fileSystem: .apfs, sameVolume: true).copiesInKernel)
    }
}

extension CopyMethodPlan.Platform {
    static let allCasesForTests: [CopyMethodPlan.Platform] = [.apple, .linux, .other]
}
