package lookout.console;

import static lookout.console.TestConsole.fx;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import lookout.console.theme.Theme;
import lookout.console.widgets.Layout;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import lookout.engine.config.ConfigResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 17 item 11: the title names the file and the engine; the operator's layout (window size
 * and place, pane, theme, filters, column widths) and the events come back on the next start; F1
 * opens the help.
 */
@ExtendWith(ApplicationExtension.class)
class ShiftLayoutFXTest {

    private Path dir;
    private Path layoutFile;
    private Stage stage;
    private TestConsole console;
    private ConsoleWindow window;

    @Start
    void start(Stage stage) throws Exception {
        this.stage = stage;
        dir = Files.createTempDirectory("lookout-fx");
        layoutFile = dir.resolve("layout/console.properties");
        open();
    }

    private void open() throws Exception {
        console = new TestConsole(dir);
        ConfigResult initial = console.minimal(dir);
        window = new ConsoleWindow(console.engine, console.loader, Layout.at(layoutFile));
        window.open(initial, initial.config().source().name(), initial.config().source().text());
        window.show(stage);
    }

    /** Closes the window as an operator does and starts the console again on the same files. */
    private void restart(FxRobot robot) throws Exception {
        robot.interact(() -> {
            window.close();
            stage.hide();
        });
        console.close();
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> Files.exists(layoutFile));
        // the layout is written on the console's own thread after the close: wait for its content
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> Files.readString(layoutFile).contains("theme=LIGHT"));
        WaitForAsyncUtils.asyncFx(() -> {
            open();
            return null;
        }).get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() {
        window.close();
        console.close();
    }

    @Test
    void theTitleNamesTheFileAndTheEngine(FxRobot robot) throws Exception {
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(() -> stage.getTitle()).contains("test.conf"));
        assertThat(fx(() -> stage.getTitle())).isEqualTo("Lookout — " + dir.resolve("test.conf") + " — embedded engine");
    }

    @Test
    void layoutThemeFiltersColumnsAndEventsComeBackAfterARestart(FxRobot robot) throws Exception {
        robot.interact(() -> {
            stage.setX(30);
            stage.setY(20);
            stage.setWidth(1111);
            stage.setHeight(733);
            window.mainView().select(ConsoleWindow.EVENTS);
            window.toggleTheme();
            window.eventsViewModel().filterTextProperty().set("demoted");
            window.eventsViewModel().minimumSeverityProperty().set(Severity.WARNING);
            window.gateway().engine(); // (the gateway is the only way to the engine)
        });
        @SuppressWarnings("unchecked")
        TableView<Object> events = robot.lookup("#eventTable").queryAs(TableView.class);
        @SuppressWarnings("unchecked")
        TableColumn<Object, ?> time = (TableColumn<Object, ?>) fx(() -> events.getColumns().get(0));
        robot.interact(() -> events.getColumns().setAll(List.of(events.getColumns().get(1), events.getColumns().get(0),
                events.getColumns().get(2), events.getColumns().get(3))));
        // an event this run shows: the next run shows it too
        robot.interact(() -> window.eventsViewModel().onEvents(List.of()));
        console.engine.reload("resolver => { listen => [ 127.0.0.1:0 ], cache_sise_192_0_2_99 => 1 }", "bad.conf", dir);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(() -> window.eventsViewModel().rows().stream()
                .anyMatch(r -> r.message().contains("cache_sise_192_0_2_99"))));

        restart(robot);
        assertThat(fx(() -> stage.getWidth())).isEqualTo(1111);
        assertThat(fx(() -> stage.getHeight())).isEqualTo(733);
        assertThat(fx(() -> stage.getX())).isEqualTo(30);
        assertThat(fx(() -> window.mainView().selected())).isEqualTo(ConsoleWindow.EVENTS);
        assertThat(window.theme()).isEqualTo(Theme.LIGHT);
        assertThat(fx(() -> window.eventsViewModel().filterTextProperty().get())).isEqualTo("demoted");
        assertThat(fx(() -> window.eventsViewModel().minimumSeverityProperty().get())).isEqualTo(Severity.WARNING);
        @SuppressWarnings("unchecked")
        TableView<Object> again = robot.lookup("#eventTable").queryAs(TableView.class);
        assertThat(fx(() -> again.getColumns().get(1).getId())).isEqualTo(time.getId());
        try {
            WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(() -> window.eventsViewModel().rows().stream()
                    .anyMatch(r -> r.message().contains("cache_sise_192_0_2_99"))));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("journal " + console.engine.eventsSince(0) + " rows "
                    + fx(() -> window.eventsViewModel().rows().stream().map(r -> r.message()).toList()) + " files "
                    + java.util.Arrays.toString(dir.toFile().list()), e);
        }
        assertThat(fx(() -> window.eventsViewModel().rows().stream()
                .anyMatch(r -> r.message().contains("from before this console started")))).isTrue();
    }

    /** Issue 24: the PVA pane's tab shown, and whether its ring is folded away, are the operator's. */
    @Test
    void thePvaPanesTabAndFoldedRingComeBackAfterARestart(FxRobot robot) throws Exception {
        // and a split's dividers (the Resolver pane's), as the operator dragged them
        robot.interact(() -> window.mainView().select(ConsoleWindow.RESOLVER));
        WaitForAsyncUtils.waitForFxEvents();
        javafx.scene.control.SplitPane resolverSplit = robot.lookup("#resolverSplit").queryAs(javafx.scene.control.SplitPane.class);
        double[] was = fx(resolverSplit::getDividerPositions);
        javafx.scene.Node divider = fx(() -> resolverSplit.lookupAll(".split-pane-divider").stream()
                .filter(d -> d.getParent() == resolverSplit).findFirst().orElseThrow());
        robot.drag(divider).moveBy(0, 60).release(javafx.scene.input.MouseButton.PRIMARY);
        WaitForAsyncUtils.waitForFxEvents();
        double[] dragged = fx(resolverSplit::getDividerPositions);
        assertThat(dragged[0]).isGreaterThan(was[0] + 0.02);
        robot.interact(() -> window.mainView().select(ConsoleWindow.PVA));
        WaitForAsyncUtils.waitForFxEvents();
        javafx.scene.control.TitledPane ring = robot.lookup("#ringPane").queryAs(javafx.scene.control.TitledPane.class);
        javafx.scene.control.TabPane tabs = robot.lookup("#pvaTabs").queryAs(javafx.scene.control.TabPane.class);
        assertThat(fx(ring::isExpanded)).isTrue();
        assertThat(fx(() -> tabs.getSelectionModel().getSelectedItem().getId())).isEqualTo("channelsTab");
        robot.interact(() -> {
            ring.setExpanded(false);
            tabs.getSelectionModel().select(tabs.getTabs().stream().filter(t -> "statusPvTab".equals(t.getId()))
                    .findFirst().orElseThrow());
            window.toggleTheme(); // what restart() waits for in the file
        });
        WaitForAsyncUtils.waitForFxEvents();
        restart(robot);
        robot.interact(() -> window.mainView().select(ConsoleWindow.PVA));
        WaitForAsyncUtils.waitForFxEvents();
        javafx.scene.control.TitledPane ring2 = robot.lookup("#ringPane").queryAs(javafx.scene.control.TitledPane.class);
        javafx.scene.control.TabPane tabs2 = robot.lookup("#pvaTabs").queryAs(javafx.scene.control.TabPane.class);
        assertThat(ring2).isNotSameAs(ring);
        assertThat(fx(ring2::isExpanded)).isFalse();
        assertThat(fx(() -> tabs2.getSelectionModel().getSelectedItem().getId())).isEqualTo("statusPvTab");
        assertThat(Files.readString(layoutFile)).contains("titled.ringPane.expanded=false")
                .contains("tabs.pvaTabs.selected=statusPvTab").contains("split.resolverSplit.dividers=")
                .doesNotContain("split.configSplit"); // never dragged: not recorded
        robot.interact(() -> window.mainView().select(ConsoleWindow.RESOLVER));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> robot.lookup("#resolverSplit").queryAs(javafx.scene.control.SplitPane.class)
                .getDividerPositions())).containsExactly(dragged, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void f1OpensTheHelp(FxRobot robot) throws Exception {
        robot.clickOn("#nav");
        robot.press(KeyCode.F1).release(KeyCode.F1);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> robot.lookup("#helpText").tryQuery().isPresent());
        assertThat(fx(() -> CopyFXTest.textOf(robot.lookup("#helpText").query()))).contains("Ctrl+S").contains("Why?");
    }

    static Instant t() {
        return Instant.now();
    }

    static EngineEvent notice(String m) {
        return new EngineEvent.Notice(Instant.now(), Subsystem.ENGINE, Severity.WARNING, m);
    }
}
