package rocelab.scenario.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Run from a jar, the examples' own files (workloads/) are copied to a temporary folder; the copy, its folders too,
 * is gone when the JVM exits. (Its folders stayed behind before: one empty tree in the temporary folder per run.)
 */
class ExampleFilesCopyTest {
    @TempDir
    Path dir;

    @Test
    void shouldLeaveNothingInTheTemporaryFolderOnceTheJvmExits() throws Exception {
        Path jar = examplesJar(dir.resolve("examples.jar"));
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        String java = ProcessHandle.current().info().command().orElse("java");
        // The jar first: the examples' folder then resolves inside it, as when rocelab runs from its own jar.
        String classPath = jar + System.getProperty("path.separator") + System.getProperty("java.class.path");
        Process child = new ProcessBuilder(java, "-Djava.io.tmpdir=" + tmp, "-cp", classPath,
                ExampleFilesCopyTest.class.getName()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("child.log").toFile()).start();
        assertThat(child.waitFor(2, TimeUnit.MINUTES)).as("the child JVM finished").isTrue();
        String log = Files.readString(dir.resolve("child.log"));
        assertThat(child.exitValue()).as(log).isZero();
        assertThat(log).as("the child read the example from a copy").contains("copied to " + tmp);
        try (Stream<Path> left = Files.list(tmp)) {
            assertThat(left.map(p -> p.getFileName().toString()))
                    .as("what the copy left in the temporary folder")
                    .noneMatch(n -> n.startsWith("rocelab-examples"));
        }
    }

    /** The child: reads an example whose workload lies in workloads/, and says where its files were copied. */
    public static void main(String[] args) throws Exception {
        var config = new ScenarioReader().readExample("chakra-3d");
        try (Stream<Path> copies = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            List<Path> made = copies.filter(p -> p.getFileName().toString().startsWith("rocelab-examples")).toList();
            if (made.size() != 1 || config == null) {
                throw new IllegalStateException("expected one copy of the examples' files, found " + made);
            }
            try (Stream<Path> files = Files.walk(made.get(0))) {
                if (files.noneMatch(Files::isRegularFile)) {
                    throw new IllegalStateException("the copy holds no files");
                }
            }
            System.out.println("copied to " + made.get(0));
        }
    }

    /** A jar of the examples' resources as the build packs them (folders as entries of their own). */
    private static Path examplesJar(Path jar) throws IOException, URISyntaxException {
        Path classes = Path.of(ScenarioReader.class.getResource("/rocelab/scenario/examples").toURI())
                .getParent().getParent().getParent();
        try (OutputStream out = Files.newOutputStream(jar); ZipOutputStream zip = new ZipOutputStream(out);
                Stream<Path> all = Files.walk(classes.resolve("rocelab/scenario/examples"))) {
            for (Path p : all.toList()) {
                String name = classes.relativize(p).toString().replace('\\', '/');
                if (Files.isDirectory(p)) {
                    zip.putNextEntry(new ZipEntry(name + "/"));
                } else {
                    zip.putNextEntry(new ZipEntry(name));
                    Files.copy(p, zip);
                }
                zip.closeEntry();
            }
        }
        return jar;
    }
}
