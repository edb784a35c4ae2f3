// `pq lint` reads an Xcode project's `project.pbxproj` for the files each target
// compiles: a test target's mock models never stand in for the app's, even when
// the test target's folder is not named `…Tests`. The fixture is hand-written:
// groups with and without paths, a file in a group named differently from its
// folder, a product outside the project's folders, and an Xcode 16 synchronized
// folder with membership exceptions.

import PredicateQuery
import Testing

@testable import PredicateQueryModels

struct XcodeProjectTests {
    static let project = """
        // !$*UTF8*$!
        {
        	archiveVersion = 1;
        	classes = {
        	};
        	objectVersion = 77;
        	objects = {

        /* Begin PBXBuildFile section */
        		B1 /* Trip.swift in Sources */ = {isa = PBXBuildFile; fileRef = F1 /* Trip.swift */; };
        		B2 = {isa = PBXBuildFile; fileRef = F2; };
        		B3 = {isa = PBXBuildFile; fileRef = F3; };
        		B4 = {isa = PBXBuildFile; fileRef = F1; };
        /* End PBXBuildFile section */
        		F1 = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Trip.swift; sourceTree = "<group>"; };
        		F2 = {isa = PBXFileReference; path = "Trip List.swift"; sourceTree = "<group>"; };
        		F3 = {isa = PBXFileReference; path = Mocks.swift; sourceTree = "<group>"; };
        		F4 = {isa = PBXFileReference; explicitFileType = wrapper.application; path = App.app; sourceTree = BUILT_PRODUCTS_DIR; };
        		G0 = {
        			isa = PBXGroup;
        			children = (
        				G1 /* Models */,
        				G2,
        				G3,
        				S1,
        				F4,
        			);
        			sourceTree = "<group>";
        		};
        		G1 /* Models */ = {isa = PBXGroup; children = (F1); path = Models; sourceTree = "<group>"; };
        		G2 = {isa = PBXGroup; children = (F2); name = "Screens"; path = Views; sourceTree = "<group>"; };
        		G3 = {isa = PBXGroup; children = (F3); name = Specs; path = "../Trips/AcceptanceSpecs"; sourceTree = "<group>"; };
        		S1 = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (E1); path = Widget; sourceTree = "<group>"; };
        		E1 = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (Old.swift, "Legacy/"); target = T3; };
        		P1 = {isa = PBXSourcesBuildPhase; buildActionMask = 2147483647; files = (B1, B2); };
        		P2 = {isa = PBXSourcesBuildPhase; files = (B3, B4, ); };
        		P3 = {isa = PBXFrameworksBuildPhase; files = (); };
        		T1 = {isa = PBXNativeTarget; buildPhases = (P1, P3); name = App; productType = "com.apple.product-type.application"; };
        		T2 = {isa = PBXNativeTarget; buildPhases = (P2); name = AppSpecs; productType = "com.apple.product-type.bundle.unit-test"; };
        		T3 = {isa = PBXNativeTarget; buildPhases = (); fileSystemSynchronizedGroups = (S1); name = Widget; productType = "com.apple.product-type.app-extension"; };
        		R0 = {isa = PBXProject; mainGroup = G0; targets = (T1, T2, T3); };
        	};
        	rootObject = R0;
        }
        """

    @Test func theTargetsAndTheirFilesAreRead() throws {
        let read = try XcodeProject.read(path: "Trips/App.xcodeproj/project.pbxproj", text: Self.project).get()
        #expect(read.targets.map(\.name) == ["App", "AppSpecs", "Widget"])
        #expect(read.targets.map(\.isTest) == [false, true, false])
        #expect(read.targets[0].files == ["Trips/Models/Trip.swift", "Trips/Views/Trip List.swift"])
        #expect(read.targets[1].files == ["Trips/AcceptanceSpecs/Mocks.swift", "Trips/Models/Trip.swift"])
        let widget = read.targets[2]
        #expect(widget.folders.map(\.path) == ["Trips/Widget"])
        #expect(widget.contains("Trips/Widget/Small.swift"))
        #expect(widget.contains("Trips/Widget/Views/Large.swift"))
        #expect(!widget.contains("Trips/Widget/Old.swift"))
        #expect(!widget.contains("Trips/Widget/Legacy/Old.swift"))
        #expect(!widget.contains("Trips/WidgetKit/Small.swift"))
    }

    @Test func aFileInTheAppAndATestTargetIsTheApps() {
        let layout = SwiftModuleLayout(
            paths: [
                "Trips/Models/Trip.swift", "Trips/AcceptanceSpecs/Mocks.swift", "Trips/Widget/Small.swift", "Trips/Other/X.swift",
            ],
            texts: ["", "", "", ""],
            projects: [SwiftModelSource.File(path: "Trips/App.xcodeproj/project.pbxproj", text: Self.project)])
        #expect(layout.modules.map(\.name) == ["App", "AppSpecs", "Widget", "Other"])
        #expect(layout.modules.map(\.isTest) == [false, true, false, false])
        #expect(layout.warnings.isEmpty)
    }

    static let files: [SwiftModelSource.File] = [
        SwiftModelSource.File(
            path: "Trips/AcceptanceSpecs/Mocks.swift",
            text: "import SwiftData\n@Model final class Trip { var mockOnly: Int = 0; init() {} }"),
        SwiftModelSource.File(
            path: "Trips/Models/Trip.swift",
            text: "import SwiftData\n@Model final class Trip { var name: String = \"\"; init() {} }"),
        SwiftModelSource.File(
            path: "Trips/Views/Trip List.swift",
            text: "let p = #Predicate<Trip> { $0.name == \"a\" }\nlet q = #Predicate<Trip> { $0.mockOnly == 1 }"),
    ]

    /// The codes of the diagnostics in the view's file.
    static func viewCodes(_ report: SwiftAppLint.Report) -> [String] {
        report.sites.filter { $0.file == "Trips/Views/Trip List.swift" }.flatMap(\.diagnostics).map(\.code.rawValue)
    }

    @Test func aTestTargetsMockDoesNotShadowTheAppsModel() {
        // Without the project, `AcceptanceSpecs` and `Models` are folders like any other, and the view imports
        // neither: its sites are skipped, naming both, rather than checked against a guess.
        let alone = SwiftAppLint.lint(Self.files).sites.filter { $0.file == "Trips/Views/Trip List.swift" }
        #expect(alone.flatMap(\.diagnostics).isEmpty)
        #expect(alone.compactMap(\.skipped).count == 2)
        #expect(alone.first?.skipped?.contains("'AcceptanceSpecs' and 'Models'") == true, "\(alone.compactMap(\.skipped))")
        let project = SwiftModelSource.File(path: "Trips/App.xcodeproj/project.pbxproj", text: Self.project)
        let report = SwiftAppLint.lint(Self.files + [project])
        // The first site reads the app's `name`; the second, the mock's property, is the error.
        #expect(Self.viewCodes(report) == ["check.unknownProperty"])
        #expect(report.sites.filter { $0.file == "Trips/Views/Trip List.swift" }.first?.diagnostics.isEmpty == true)
        #expect(report.files.map(\.path) == Self.files.map(\.path))
        #expect(report.projectWarnings.isEmpty)
    }

    @Test func aProjectPqCannotParseFallsBackToFoldersWithANote() {
        let broken = Self.project.replacingOccurrences(of: "name = App;", with: "name = App")
        let project = SwiftModelSource.File(path: "Trips/App.xcodeproj/project.pbxproj", text: broken)
        let report = SwiftAppLint.lint(Self.files + [project])
        #expect(report.projectWarnings.count == 1)
        #expect(report.projectWarnings.first?.line == 38)
        #expect(report.projectWarnings.first?.message.contains("its files' modules are their folders") == true)
        // As without a project.
        #expect(Self.viewCodes(report) == Self.viewCodes(SwiftAppLint.lint(Self.files)))
    }

    @Test func anyPrefixOfTheFileIsReadOrRefusedWithoutACrash() {
        let bytes = Array(Self.project.utf8)
        var refused = 0
        for end in stride(from: 0, through: bytes.count, by: 3) {
            let text = String(decoding: bytes[..<end], as: UTF8.self)
            if case .failure = XcodeProject.read(path: "A.xcodeproj/project.pbxproj", text: text) { refused += 1 }
        }
        #expect(refused > 0)
        if case .failure(let problem) = XcodeProject.read(path: "A.xcodeproj/project.pbxproj", text: "{ objects = {}; }") {
            Issue.record("refused an empty project: \(problem)")
        }
        if case .success = XcodeProject.read(path: "A.xcodeproj/project.pbxproj", text: "(") { Issue.record("read '('") }
    }
}
