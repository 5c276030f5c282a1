package lookout.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import lookout.engine.config.ConfigSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Versions across restarts, numbered backups, hashes, atomic files. */
class ConfigStoreTest {

    @TempDir
    Path dir;

    @Test
    void theVersionContinuesForTheSameTextAndStepsForAnother() throws Exception {
        ConfigStore s = new ConfigStore(dir);
        String a = ConfigSource.of("", null, "a").sha256();
        String b = ConfigSource.of("", null, "b").sha256();
        assertThat(s.startVersion(a)).isEqualTo(1);
        s.recordVersion(7, a);
        assertThat(new ConfigStore(dir).startVersion(a)).isEqualTo(7);
        assertThat(new ConfigStore(dir).startVersion(b)).isEqualTo(8);
        Files.writeString(dir.resolve(ConfigStore.VERSION_FILE), "garbage");
        assertThat(new ConfigStore(dir).startVersion(a)).isEqualTo(1);
    }

    @Test
    void backupsAreNumberedAndTheLastTwentyKept() throws Exception {
        ConfigStore s = new ConfigStore(dir);
        Path conf = dir.resolve("lookout.conf");
        Path last = null;
        for (int i = 1; i <= 23; i++) {
            last = s.backup(conf, ("v" + i).getBytes(StandardCharsets.UTF_8));
        }
        Path backups = dir.resolve(ConfigStore.BACKUP_DIR);
        assertThat(last).isEqualTo(backups.resolve("lookout.conf.23"));
        assertThat(ConfigStore.backupNumbers(backups, "lookout.conf")).hasSize(20).startsWith(4L).endsWith(23L);
        assertThat(Files.readString(backups.resolve("lookout.conf.4"))).isEqualTo("v4");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(last))).isEqualTo("rw-------");
    }

    @Test
    void aFileHashesAsItsTextUnlessItIsNoUtf8() {
        String text = "resolver => {}\n";
        String sha = ConfigSource.of("x", null, text).sha256();
        assertThat(ConfigStore.sha256(text.getBytes(StandardCharsets.UTF_8))).isEqualTo(sha);
        assertThat(ConfigStore.sha256(("\uFEFF" + text).getBytes(StandardCharsets.UTF_8))).isEqualTo(sha);
        assertThat(ConfigStore.sha256(new byte[] {(byte) 0xff, 'a'})).hasSize(64).isNotEqualTo(sha);
    }

    @Test
    void anAtomicWriteKeepsTheTargetsModeAndLeavesNoTemporary() throws Exception {
        Path f = dir.resolve("c.conf");
        Files.writeString(f, "old");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r-----"));
        AtomicFiles.Pending p = AtomicFiles.prepare(f, "new".getBytes(StandardCharsets.UTF_8), null);
        assertThat(Files.readString(f)).isEqualTo("old");
        p.commit();
        assertThat(Files.readString(f)).isEqualTo("new");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-r-----");
        AtomicFiles.prepare(f, "never".getBytes(StandardCharsets.UTF_8), null).abort();
        Files.writeString(dir.resolve(".c.conf.tmp-0123"), "left by a kill");
        AtomicFiles.removeStaleTemporaries(f);
        try (var files = Files.list(dir)) {
            assertThat(files.map(x -> x.getFileName().toString())).containsExactly("c.conf");
        }
    }
}
