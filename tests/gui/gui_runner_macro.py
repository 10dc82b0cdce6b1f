# Runs inside the FreeCAD GUI (started by run_gui_macro.py as `freecad gui_runner_macro.py`).
#
# Configuration comes from environment variables set by the harness:
#   MBD_GUI_MACRO    the test macro to run (a Python file)
#   MBD_GUI_OUT      folder for result.json, screenshots and files the macro writes
#   MBD_GUI_TIMEOUT  seconds before the watchdog writes a timeout result and kills FreeCAD
#
# The test macro is exec()d, inside the running Qt event loop, with these names:
#   App, Gui, QtCore, QtGui, QtWidgets, OUT_DIR, result (a dict saved as JSON),
#   check(name, condition, detail=""), wait(ms), save_view(name, w, h, background),
#   save_window(name), image_stats(path), close_message_boxes(seen, timeout_ms),
#   run_with_boxes(command, timeout_ms) (runs a GUI command, returns the boxes it closed),
#   run_with_box(command, png, press, timeout_ms) (grabs and answers the first box a command shows).
#   wait_for_warm_up(seconds) (waits for the workbench's kernel warm-up, returns its state),
#   open_example_copy(example, name, settle_ms) (a copy of examples/<example> in OUT_DIR, opened).
# The result file is result.json: {"ok": bool, "checks": [...], "error": str|None, ...}.
# Afterwards every document is closed unsaved and the main window closed, so FreeCAD exits
# normally; a daemon watchdog thread os._exit()s if that has not happened after 20 s
# (writing "forced_exit" next to result.json). Everything lives in one function: FreeCAD may
# run this file with separate globals and locals.


def _mbd_gui_runner():
    import json
    import os
    import sys
    import threading
    import time
    import traceback

    import FreeCAD as App
    import FreeCADGui as Gui
    from PySide import QtCore, QtGui

    try:
        from PySide import QtWidgets
    except ImportError:  # FreeCAD 0.20: the widgets are in QtGui
        QtWidgets = QtGui

    out_dir = os.environ["MBD_GUI_OUT"]
    macro = os.environ["MBD_GUI_MACRO"]
    timeout = float(os.environ.get("MBD_GUI_TIMEOUT", "120"))
    result_path = os.path.join(out_dir, "result.json")
    started = time.time()
    result = {"ok": False, "checks": [], "error": None, "macro": macro}
    lock = threading.Lock()
    state = {"written": False}

    def log(text):
        sys.__stderr__.write("[gui-runner] %s\n" % text)
        sys.__stderr__.flush()

    def write_result(extra=None):
        with lock:
            if state["written"]:
                return
            state["written"] = True
            data = dict(result)
            if extra:
                data.update(extra)
            data["seconds_in_freecad"] = round(time.time() - started, 3)
            tmp = result_path + ".tmp"
            with open(tmp, "w") as f:
                json.dump(data, f, indent=2, default=str)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, result_path)

    def force_exit(code, why):
        try:
            with open(os.path.join(out_dir, "forced_exit"), "w") as f:
                f.write(why + "\n")
        finally:
            log("forced exit (%s): %s" % (code, why))
            os._exit(code)

    def watchdog():
        time.sleep(timeout)
        write_result({"ok": False, "error": "timeout after %g s in FreeCAD" % timeout})
        force_exit(124, "timeout")

    threading.Thread(target=watchdog, name="mbd-gui-watchdog", daemon=True).start()

    # ------------------------------------------------------------ helpers for the macro

    def check(name, condition, detail=""):
        entry = {"name": name, "ok": bool(condition)}
        if detail:
            entry["detail"] = str(detail)
        result["checks"].append(entry)
        log("%s %s %s" % ("PASS" if condition else "FAIL", name, detail))
        return bool(condition)

    def wait(ms):
        loop = QtCore.QEventLoop()
        QtCore.QTimer.singleShot(int(ms), loop.quit)
        loop.exec_() if hasattr(loop, "exec_") else loop.exec()

    def image_stats(path):
        image = QtGui.QImage(path)
        if image.isNull():
            return {"path": path, "exists": os.path.exists(path), "valid": False}
        w, h = image.width(), image.height()
        corner = image.pixel(0, 0)
        colors, differing, samples = set(), 0, 0
        step = max(1, min(w, h) // 100)
        for y in range(0, h, step):
            for x in range(0, w, step):
                p = image.pixel(x, y)
                colors.add(p)
                differing += p != corner
                samples += 1
        return {
            "path": path,
            "valid": True,
            "width": w,
            "height": h,
            "distinct_colors": len(colors),
            "non_background_fraction": differing / float(samples),
        }

    def save_view(name, width=800, height=600, background="White"):
        """Render the active 3D view to OUT_DIR/<name>.png (Coin offscreen render)."""
        path = os.path.join(out_dir, name if name.endswith(".png") else name + ".png")
        Gui.activeDocument().activeView().saveImage(path, int(width), int(height), background)
        return image_stats(path)

    def save_window(name):
        """Screenshot of the main window as on screen (X server), 3D view included."""
        path = os.path.join(out_dir, name if name.endswith(".png") else name + ".png")
        app = QtWidgets.QApplication.instance()
        app.processEvents()
        window = Gui.getMainWindow()
        screen = app.primaryScreen() if hasattr(app, "primaryScreen") else None
        if screen is not None:
            pixmap = screen.grabWindow(window.winId())
        else:
            pixmap = QtGui.QPixmap.grabWindow(window.winId())
        pixmap.save(path)
        return image_stats(path)

    def close_message_boxes(seen, timeout_ms=5000):
        """Poll for message boxes; record (objectName, title, text) in ``seen`` and close them."""
        deadline = time.time() + timeout_ms / 1000.0

        def poll():
            for widget in QtWidgets.QApplication.topLevelWidgets():
                if isinstance(widget, QtWidgets.QMessageBox) and widget.isVisible():
                    seen.append((widget.objectName(), widget.windowTitle(), widget.text()))
                    widget.done(0)
                    return
            if time.time() < deadline:
                QtCore.QTimer.singleShot(50, poll)

        QtCore.QTimer.singleShot(50, poll)

    def run_with_boxes(command, timeout_ms=5000):
        """Run a GUI command, closing (and returning) the message boxes it shows."""
        seen = []
        close_message_boxes(seen, timeout_ms)
        Gui.runCommand(command)
        wait(100)
        return seen

    def box_icon(box):
        icons = {QtWidgets.QMessageBox.Warning: "warning", QtWidgets.QMessageBox.Information: "information"}
        icons[QtWidgets.QMessageBox.Critical] = "critical"
        return icons.get(box.icon(), str(box.icon()))

    def run_with_box(command, png=None, press=None, timeout_ms=120000):
        """Run a GUI command and answer the first message box it shows: grab it to OUT_DIR/<png>.png,
        click its button with objectName ``press`` (else close it). Returns [] or [a dict of its
        name (objectName), icon, text, modal, pressed (the button was found)]."""
        seen = []
        deadline = time.time() + timeout_ms / 1000.0

        def poll():
            for widget in QtWidgets.QApplication.topLevelWidgets():
                if isinstance(widget, QtWidgets.QMessageBox) and widget.isVisible():
                    wait(50)
                    if png:
                        widget.grab().save(os.path.join(out_dir, png + ".png"))
                    button = widget.findChild(QtWidgets.QPushButton, press) if press else None
                    box = {"name": widget.objectName(), "icon": box_icon(widget), "text": widget.text()}
                    seen.append(dict(box, modal=widget.isModal(), pressed=button is not None))
                    button.click() if button is not None else widget.done(0)
                    return
            if time.time() < deadline:
                QtCore.QTimer.singleShot(50, poll)

        QtCore.QTimer.singleShot(50, poll)
        Gui.runCommand(command)
        wait(100)
        return seen

    # ------------------------------------------------------------ run, save, exit

    def finish():
        write_result()
        log("result written: ok=%s" % result.get("ok"))
        try:
            for name in list(App.listDocuments()):
                App.closeDocument(name)
        except Exception:
            log(traceback.format_exc())

        def exit_watchdog():
            time.sleep(20)
            force_exit(3 if result.get("ok") else 1, "FreeCAD did not exit after closing the main window")

        threading.Thread(target=exit_watchdog, name="mbd-gui-exit", daemon=True).start()
        Gui.getMainWindow().close()

    def wait_for_warm_up(seconds=400):
        # Wait, the event loop running, until the kernel warm-up is done or `seconds` have passed;
        # returns its state (MBDWorkbench.commands.solve_commands.warm_up_state()).
        from MBDWorkbench.commands import solve_commands

        deadline = time.time() + seconds
        while not solve_commands.warm_up_state().get("done") and time.time() < deadline:
            wait(200)
        return solve_commands.warm_up_state()

    def open_example_copy(example, name, settle_ms=200):
        # Copy examples/<example> to OUT_DIR/<name>, open it and let the GUI settle; returns the document.
        import shutil

        import MBDWorkbench

        examples = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(MBDWorkbench.__file__))), "examples")
        path = os.path.join(out_dir, name)
        shutil.copy(os.path.join(examples, example), path)
        doc = App.openDocument(path)
        wait(settle_ms)
        return doc

    def run():
        namespace = {
            "__name__": "__mbd_gui_macro__",
            "__file__": macro,
            "App": App,
            "FreeCAD": App,
            "Gui": Gui,
            "FreeCADGui": Gui,
            "QtCore": QtCore,
            "QtGui": QtGui,
            "QtWidgets": QtWidgets,
            "OUT_DIR": out_dir,
            "result": result,
            "check": check,
            "wait": wait,
            "save_view": save_view,
            "save_window": save_window,
            "image_stats": image_stats,
            "close_message_boxes": close_message_boxes,
            "run_with_boxes": run_with_boxes,
            "run_with_box": run_with_box,
            "wait_for_warm_up": wait_for_warm_up,
            "open_example_copy": open_example_copy,
        }
        try:
            wait(300)  # let the main window finish showing
            with open(macro) as f:
                code = compile(f.read(), macro, "exec")
            exec(code, namespace)
            result["ok"] = all(c["ok"] for c in result["checks"])
        except BaseException:  # noqa: B902 -- SystemExit from a macro is a failure too
            result["ok"] = False
            result["error"] = traceback.format_exc()
            log(result["error"])
        finish()

    result["freecad_version"] = ".".join(App.Version()[:3])
    result["user_app_data_dir"] = App.getUserAppDataDir()
    QtCore.QTimer.singleShot(0, run)


_mbd_gui_runner()
