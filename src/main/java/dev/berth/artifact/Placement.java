package dev.berth.artifact;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Moves what was fetched (a file, or a staged tree) to its destination, never through a symbolic link that leads out of
 * the sandbox: before each write the deepest existing ancestor of the target is resolved and must lie inside one of the
 * writable roots (the task directory, the shared {@code alloc/} directory), so a link a task left in its own directory
 * cannot redirect an artifact onto the host (Nomad's "artifact includes symlink that resolves outside of sandbox").
 */
final class Placement {

    private final List<Path> roots;

    /** @param writableRoots the directories an artifact may be written into */
    Placement(List<Path> writableRoots) throws IOException {
        List<Path> real = new ArrayList<>();
        for (Path r : writableRoots) {
            Files.createDirectories(r);
            real.add(r.toRealPath());
        }
        this.roots = List.copyOf(real);
    }

    /** Puts {@code file} at {@code target}, replacing a file (or a link) there; a directory there is an error. */
    void file(Path file, Path target) throws IOException, ArtifactException {
        if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new ArtifactException("destination " + target + " is a directory, not a file");
        }
        guard(target);
        Files.createDirectories(target.getParent());
        Files.move(file, target, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Merges the tree under {@code staged} into {@code targetDir} (created if missing); files there are replaced. */
    void tree(Path staged, Path targetDir) throws IOException, ArtifactException {
        guard(targetDir);
        if (Files.exists(targetDir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(targetDir, LinkOption.NOFOLLOW_LINKS)) {
            throw new ArtifactException("destination " + targetDir + " is not a directory");
        }
        Files.createDirectories(targetDir);
        List<Path> entries;
        try (Stream<Path> walk = Files.walk(staged)) {
            entries = walk.filter(p -> !p.equals(staged)).toList();
        }
        for (Path p : entries) {
            Path target = targetDir.resolve(staged.relativize(p).toString());
            if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                guard(target);
                if (Files.exists(target, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
                    throw new ArtifactException("destination " + target + " is not a directory");
                }
                Files.createDirectories(target);
            } else {
                file(p, target);
            }
        }
    }

    /** The target's deepest existing ancestor (links resolved; the target itself if it is a link) must be inside a root. */
    private void guard(Path target) throws IOException, ArtifactException {
        Path existing = target;
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            throw new ArtifactException("artifact destination " + target + " has no existing parent");
        }
        Path real = Files.isSymbolicLink(existing) || Files.exists(existing) ? resolved(existing) : existing;
        for (Path root : roots) {
            if (real.startsWith(root)) {
                return;
            }
        }
        throw new ArtifactException("artifact includes symlink that resolves outside of sandbox: " + target);
    }

    private static Path resolved(Path p) throws IOException {
        try {
            return p.toRealPath();
        } catch (java.nio.file.NoSuchFileException e) {
            // a dangling link: where it points decides
            Path link = Files.readSymbolicLink(p);
            return p.getParent().resolve(link).normalize();
        }
    }
}
