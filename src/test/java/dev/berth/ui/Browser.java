package dev.berth.ui;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import static org.assertj.core.api.Assertions.fail;

/**
 * Debian's headless Chromium driven through Debian's chromedriver (packages {@code chromium}, {@code chromium-driver};
 * .ci/test-prereqs.sh installs them). Nothing is downloaded: the browser and the driver are given by path. Fails
 * under {@code CI=true} when they are missing and is skipped otherwise.
 */
final class Browser implements AutoCloseable {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final Path SCREENSHOTS = Path.of("target", "ui-screenshots");

    final ChromeDriver driver;

    Browser(Path userDataDir) {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("chromium/chromedriver missing but CI=true: install the Debian packages 'chromium' and 'chromium-driver'");
            }
            Assumptions.abort("Debian's chromium and chromium-driver are not installed; skipped outside CI");
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-default-apps", "--window-size=1400,1100", "--user-data-dir=" + userDataDir.toAbsolutePath());
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().withLogFile(userDataDir.resolveSibling("chromedriver.log").toFile()).build();
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
    }

    /** Saves what the page looks like now as {@code target/ui-screenshots/<name>.png}. */
    Path screenshot(String name) throws IOException {
        File shot = driver.getScreenshotAs(OutputType.FILE);
        Files.createDirectories(SCREENSHOTS);
        Path target = SCREENSHOTS.resolve(name + ".png");
        Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
        return target;
    }

    @Override
    public void close() {
        driver.quit();
    }

    WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    /** The text of the first element matching {@code css}, or "" when there is none (yet). */
    String text(String css) {
        java.util.List<WebElement> found = driver.findElements(By.cssSelector(css));
        return found.isEmpty() ? "" : found.getFirst().getText();
    }

    /** Answers the page's token prompt once it shows. */
    void giveToken(String token, org.awaitility.core.ConditionFactory wait) {
        wait.until(() -> find("#token-dialog").isDisplayed());
        WebElement input = find("#token-input");
        input.clear();
        input.sendKeys(token);
        find("#token-form button[type=submit]").click();
    }
}
