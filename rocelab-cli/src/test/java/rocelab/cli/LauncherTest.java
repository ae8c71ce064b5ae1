package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./rocelab} launcher script, run on a copy of the repository's layout whose jar is a small probe that
 * prints the JVM's garbage collectors: when it rebuilds, and which JVM options win.
 */
class LauncherTest {
    /** Stands in for the CLI jar: prints the collectors the launcher's JVM runs with. */
    public static final class GcProbe {
        public static void main(String[] args) {
            System.out.println(ManagementFactory.getGarbageCollectorMXBeans().stream()
                    .map(GarbageCollectorMXBean::getName).collect(Collectors.joining(",")));
            HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            System.out.println("huge pages " + vm.getVMOption("UseTransparentHugePages").getValue());
            System.out.println("new ratio " + vm.getVMOption("NewRatio").getValue() + ", pretenure from "
                    + vm.getVMOption("PretenureSizeThreshold").getValue());
            System.out.println("options " + ManagementFactory.getRuntimeMXBean().getInputArguments());
        }
    }

    @TempDir
    Path repo;

    private Path jar;

    @BeforeEach
    void copyTheLauncherNextToAProbeJar() throws IOException {
        assumeTrue(!System.getProperty("os.name").startsWith("Windows"), "the launcher is a bash script");
        Files.copy(Path.of("../rocelab"), repo.resolve("rocelab"));
        repo.resolve("rocelab").toFile().setExecutable(true);
        Path source = Files.createDirectories(repo.resolve("rocelab-cli/src/main/java/rocelab/cli"))
                .resolve("Main.java");
        Files.writeString(source, "class Main {}\n");
        jar = Files.createDirectories(repo.resolve("rocelab-cli/target")).resolve("rocelab.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, GcProbe.class.getName());
        String entry = GcProbe.class.getName().replace('.', '/') + ".class";
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest);
             var in = GcProbe.class.getClassLoader().getResourceAsStream(entry)) {
            out.putNextEntry(new JarEntry(entry));
            in.transferTo(out);
            out.closeEntry();
        }
        Files.setLastModifiedTime(source, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
    }

    /** Runs the launcher with a PATH of only the tools it uses and no Maven, so a rebuild shows as its own error. */
    private String launch(Map<String, String> env) throws Exception {
        Path bin = Files.createDirectories(repo.resolve("bin"));
        Path java = Path.of(ProcessHandle.current().info().command().orElseThrow());
        for (String tool : List.of("find", "dirname", "readlink", "mktemp", "mv", "rm", "cat", "grep", "bash", "java")) {
            Path wrapper = bin.resolve(tool);
            if (!Files.exists(wrapper)) {
                Files.writeString(wrapper, "#!/bin/sh\nexec '" + (tool.equals("java") ? java : onPath(tool))
                        + "' \"$@\"\n");
                wrapper.toFile().setExecutable(true);
            }
        }
        ProcessBuilder pb = new ProcessBuilder(List.of(onPath("bash").toString(), repo.resolve("rocelab").toString()))
                .redirectErrorStream(true);
        pb.environment().remove("ROCELAB_JAVA_OPTS");
        pb.environment().remove("ROCELAB_JAVA");
        pb.environment().remove("JAVA_HOME");
        // No JDK installed but the java on the PATH, unless a test puts some there: this machine's own do not count.
        pb.environment().put("ROCELAB_JDKS", Files.createDirectories(repo.resolve("jdks")).toString());
        pb.environment().put("PATH", bin.toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return text;
    }

    private static Path onPath(String tool) {
        for (String dir : System.getenv("PATH").split(":")) {
            Path p = Path.of(dir, tool);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        throw new org.opentest4j.TestAbortedException(tool + " is not on the PATH");
    }

    /**
     * A JDK of {@code version} in the test's JDK folder, whose java logs its arguments (one line per call) and runs the
     * test's own JVM without the ahead-of-time options (which a JVM older than 25 refuses); asked to make a cache, it
     * makes the file, or fails when {@code trainingFails}.
     */
    private Path fakeJdk(String version, boolean trainingFails) throws IOException {
        Path home = Files.createDirectories(repo.resolve("jdks/fake-" + version + "/bin")).getParent();
        Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"" + version + "\"\n");
        Path java = home.resolve("bin/java");
        Files.writeString(java, "#!/bin/bash\n"
                + "echo \"$*\" >> '" + repo.resolve("java-calls.log") + "'\n"
                + "args=()\n"
                + "for a in \"$@\"; do\n"
                + "  case $a in\n"
                + "    -XX:AOTCacheOutput=*) " + (trainingFails ? "exit 1" : "echo cache > \"${a#*=}\"") + " ;;\n"
                + "    -XX:AOT*|-XX:[+-]AOT*|-Xlog:aot=off|-Xlog:cds=off) ;;\n"
                + "    *) args+=(\"$a\") ;;\n"
                + "  esac\n"
                + "done\n"
                + "exec '" + ProcessHandle.current().info().command().orElseThrow() + "' \"${args[@]}\"\n");
        java.toFile().setExecutable(true);
        return java;
    }

    private List<String> javaCalls() throws IOException {
        Path log = repo.resolve("java-calls.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    @Test
    void shouldRunAnInstalledJava25FromACacheMadeOncePerBuild() throws Exception {
        fakeJdk("25.0.9", false);
        Path cache = repo.resolve("rocelab-cli/target/rocelab-java25.0.9.aot");

        String first = launch(Map.of());

        assertThat(first).as("the java on the PATH is not 25, the folder's is").contains("preparing the JVM's ahead-of-time"
                + " cache", "MarkSweepCompact");
        assertThat(javaCalls()).hasSize(2);
        assertThat(javaCalls().get(0)).as("the cache is made by running the demo with the run's own options, and"
                + " without the demo's method profiles, which slowed long runs' loops")
                .contains("-XX:+UseSerialGC", "-XX:AOTCacheOutput=", "-XX:-AOTRecordTraining", "run -q --out");
        assertThat(javaCalls().get(1)).contains("-XX:AOTCache=" + cache, "-Xlog:aot=off");
        assertThat(cache).exists();

        String second = launch(Map.of());

        assertThat(second).doesNotContain("preparing").contains("MarkSweepCompact");
        assertThat(javaCalls()).hasSize(3);
        assertThat(javaCalls().get(2)).contains("-XX:AOTCache=" + cache);

        Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() + 120_000));
        assertThat(launch(Map.of())).as("a newer jar (a build) makes the cache again").contains("preparing");
    }

    @Test
    void shouldNotTryAFailedCacheAgainUntilTheNextBuild() throws Exception {
        fakeJdk("25.0.9", true);

        assertThat(launch(Map.of())).contains("preparing", "MarkSweepCompact");
        assertThat(launch(Map.of())).doesNotContain("preparing").contains("MarkSweepCompact");
        assertThat(javaCalls()).hasSize(3);
        assertThat(javaCalls().get(2)).doesNotContain("-XX:AOT");
    }

    @Test
    void shouldLetTheUsersJavaWin() throws Exception {
        fakeJdk("25.0.9", false);
        Path chosen = fakeJdk("17.0.1", false);

        String out = launch(Map.of("ROCELAB_JAVA", chosen.toString()));

        assertThat(out).doesNotContain("preparing").contains("MarkSweepCompact");
        assertThat(javaCalls()).hasSize(1);
        assertThat(javaCalls().get(0)).doesNotContain("-XX:AOT");
        assertThat(launch(Map.of("ROCELAB_JAVA_OPTS", "-Xshare:off"))).as("no cache when the user turns sharing off")
                .doesNotContain("preparing");
    }

    @Test
    void shouldNotRebuildForFilesUnderTarget() throws Exception {
        Path generated = Files.createDirectories(repo.resolve("rocelab-bench/target/generated-sources/jmh"))
                .resolve("Generated.java");
        Files.writeString(generated, "class Generated {}\n");

        String out = launch(Map.of());

        assertThat(out).as("a JMH-generated source newer than the jar is not a reason to build")
                .doesNotContain("building", "Maven").contains("MarkSweepCompact");
        assertThat(out).as("no Java 25 installed: the java on the PATH, with no cache").doesNotContain("AOT", "preparing");
    }

    @Test
    void shouldRebuildWhenASourceChanged() throws Exception {
        Files.setLastModifiedTime(repo.resolve("rocelab-cli/src/main/java/rocelab/cli/Main.java"),
                FileTime.fromMillis(System.currentTimeMillis() + 60_000));

        assertThat(launch(Map.of())).contains("Maven (mvn) is needed to build");
    }

    @Test
    void shouldLetTheUsersCollectorWin() throws Exception {
        assertThat(launch(Map.of())).as("the default: the serial collector, sized for long-lived large arrays")
                .contains("Copy,MarkSweepCompact", "new ratio 8, pretenure from 1048576");
        assertThat(launch(Map.of("ROCELAB_JAVA_OPTS", "-XX:+UseParallelGC")))
                .as("ROCELAB_JAVA_OPTS chooses the collector, and its sizing").contains("PS Scavenge")
                .doesNotContain("Copy", "new ratio 8");
    }

    @Test
    void shouldAskForHugePagesWhereTheKernelOffersThemAndLetTheUserSayNo() throws Exception {
        Path mode = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        boolean offered = Files.isReadable(mode) && Files.readString(mode).matches("(?s).*\\[(always|madvise)\\].*");

        assertThat(launch(Map.of())).as("huge pages where the kernel has them (" + mode + ")")
                .contains("huge pages " + offered);
        assertThat(launch(Map.of("ROCELAB_JAVA_OPTS", "-XX:-UseTransparentHugePages")))
                .as("ROCELAB_JAVA_OPTS turns them off").contains("huge pages false");
    }

}
