#!/usr/bin/env python3
"""Checks the demo's Xcode project and Info.plist without Xcode: the project file parses
(PyPI's pbxproj), every file it names exists, every Swift file of the demo is in it (so the
files the real-SDK check compiles are the app's), its package products are the package's
libraries, and Info.plist has the usage strings and PickupTusEndpoint.
usage: check-xcode-project.py [PROJECT_FOLDER]   (default Examples/PickupDemo)"""
import glob, os, plistlib, re, sys
from urllib.parse import urlparse
from pbxproj import XcodeProject

folder = sys.argv[1] if len(sys.argv) > 1 else "Examples/PickupDemo"
problems = []
project = XcodeProject.load(os.path.join(folder, "PickupDemo.xcodeproj", "project.pbxproj"))
targets = project.objects.get_targets()
if [t.name for t in targets] != ["PickupDemo"]:
    problems.append(f"expected one target PickupDemo, found {[t.name for t in targets]}")
for target in targets:
    if target.productType != "com.apple.product-type.application":
        problems.append(f"{target.name} is not an application")
names = set()
for ref in project.objects.get_objects_in_section("PBXFileReference"):
    if ref.sourceTree == "<group>":
        path = os.path.join(folder, ref.path)
        names.add(ref.path)
        if not os.path.exists(path):
            problems.append(f"the project names {ref.path}, which is not in {folder}")
swift = {os.path.basename(p) for p in glob.glob(os.path.join(folder, "*.swift"))}
compiled = set()
for phase in project.objects.get_objects_in_section("PBXSourcesBuildPhase"):
    for build_file in phase.files:
        ref = project.objects[project.objects[build_file].fileRef]
        compiled.add(ref.path)
if compiled != swift:
    problems.append(f"the target compiles {sorted(compiled)}, the folder holds {sorted(swift)}")
package = open("Package.swift").read()
libraries = set(re.findall(r'\.library\(name: "([^"]+)"', package))
for local in project.objects.get_objects_in_section("XCLocalSwiftPackageReference"):
    root = os.path.normpath(os.path.join(folder, local.relativePath))
    if not os.path.isfile(os.path.join(root, "Package.swift")):
        problems.append(f"the package reference {local.relativePath} has no Package.swift")
for dependency in project.objects.get_objects_in_section("XCSwiftPackageProductDependency"):
    if dependency.productName not in libraries:
        problems.append(f"the product {dependency.productName} is not a library of Package.swift")
deployment = set()
for configuration in project.objects.get_objects_in_section("XCBuildConfiguration"):
    settings = configuration.buildSettings
    if "INFOPLIST_FILE" in settings and not os.path.isfile(os.path.join(folder, settings["INFOPLIST_FILE"])):
        problems.append(f"INFOPLIST_FILE {settings['INFOPLIST_FILE']} is missing")
    if "IPHONEOS_DEPLOYMENT_TARGET" in settings:
        deployment.add(str(settings["IPHONEOS_DEPLOYMENT_TARGET"]))
check = open("scripts/check-ios.sh").read()
if deployment != {"17.0"} or "module PickupDemo arm64-apple-ios17.0" not in check:
    problems.append(f"the project's deployment target {deployment} is not the one the real-SDK check compiles (17.0)")
with open(os.path.join(folder, "Info.plist"), "rb") as file:
    info = plistlib.load(file)
for key in ["NSCameraUsageDescription", "NSMicrophoneUsageDescription", "NSPhotoLibraryUsageDescription"]:
    if not str(info.get(key, "")).strip():
        problems.append(f"Info.plist lacks {key}")
endpoint = urlparse(str(info.get("PickupTusEndpoint", "")))
if endpoint.scheme not in ("https", "http") or not endpoint.netloc:
    problems.append("Info.plist's PickupTusEndpoint is not an http(s) URL")
for problem in problems:
    print(f"check-xcode-project: {problem}", file=sys.stderr)
if problems:
    sys.exit(1)
print(f"check-xcode-project: {folder}: the project and Info.plist name {len(names)} files, all there")
