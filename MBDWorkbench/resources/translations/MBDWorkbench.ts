<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1">
  <context>
    <name>MBD</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="257" />
      <source>%d of %d variants, %d failed, %.1f s, about %.0f s left</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/report_command.py" line="227" />
      <source>%s already holds %s.
Replace them?</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/force_element.py" line="70" />
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="296" />
      <source>%s component [%s]: number or expression in t [s]</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="279" />
      <source>%s%s; written to %s</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/event_view.py" line="190" />
      <source>%s: impact at %.3g %s</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="161" />
      <source>(pick a face or a body)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="154" />
      <source>(pick the bodies)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="160" />
      <source>(solid)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="129" />
      <source>. Select one element (joint to the ground) or two elements on two parts.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="64" />
      <source>A picked rectangular plane face counts within its edges only (a slot's wall), not as its whole plane</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="81" />
      <source>A second run, in a second process, estimates the error (docs/solver.md)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="26" />
      <source>Absolute tolerance</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="55" />
      <source>All pairs among these bodies</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="76" />
      <source>Allow nothing grounded</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/animate.py" line="297" />
      <location filename="../../../MBDWorkbench/commands/animate.py" line="522" />
      <location filename="../../../MBDWorkbench/commands/animate.py" line="526" />
      <location filename="../../../MBDWorkbench/commands/animate.py" line="533" />
      <source>Animate</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="70" />
      <source>Assemble first</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="203" />
      <source>Axes</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="27" />
      <source>Baumgarte alpha</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="28" />
      <source>Baumgarte beta</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="197" />
      <source>Body</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="121" />
      <source>Cancel</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="121" />
      <source>Cancel study</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="242" />
      <source>Cancelling: the finished variants are kept ...</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="76" />
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="61" />
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="58" />
      <source>Check model</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="72" />
      <source>Close the joints before the run (assembly from the drawn positions)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/animate.py" line="526" />
      <source>Close the open task panel first.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="119" />
      <source>Cluster</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/event_view.py" line="95" />
      <source>Contact force scale</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/force_element.py" line="139" />
      <source>Create %s</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/spring.py" line="48" />
      <source>Damping</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="25" />
      <source>Deflection</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/body.py" line="48" />
      <source>Density</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="109" />
      <source>Design</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/preferences.py" line="81" />
      <source>Display</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/force_element.py" line="139" />
      <source>Edit %s</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="187" />
      <source>Edit joint frame</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="22" />
      <source>End time</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="79" />
      <source>Estimate the accuracy</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/event_view.py" line="84" />
      <source>Events and contacts</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/fem_command.py" line="122" />
      <source>Every critical instant (load cases and their envelope)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="57" />
      <source>Every pair of the picked bodies, except pairs joined by a joint</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="19" />
      <source>Exponent n</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/fem_command.py" line="133" />
      <location filename="../../../MBDWorkbench/commands/fem_command.py" line="173" />
      <location filename="../../../MBDWorkbench/commands/fem_command.py" line="169" />
      <source>FEM check</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/body.py" line="44" />
      <source>Fixed to the ground</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/joint_panel.py" line="58" />
      <location filename="../../../MBDWorkbench/commands/panels/joint.py" line="52" />
      <source>Flip</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/spring.py" line="56" />
      <source>Free angle (0: initial)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/spring.py" line="55" />
      <source>Free length</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/spring.py" line="49" />
      <source>Free length = initial distance</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/free_body.py" line="159" />
      <source>Free-body diagram</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="33" />
      <location filename="../../../MBDWorkbench/commands/panels/joint.py" line="101" />
      <source>Friction</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="110" />
      <source>From</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="32" />
      <source>Gravity x</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="33" />
      <source>Gravity y</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="34" />
      <source>Gravity z</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/body.py" line="50" />
      <source>Grounded</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="394" />
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="402" />
      <source>Import assembly joints</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="66" />
      <source>Integrator</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="62" />
      <source>Joint</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/joint_panel.py" line="38" />
      <source>Joint frame: %s</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/animate.py" line="329" />
      <source>Keep this frame when closing</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="202" />
      <location filename="../../../MBDWorkbench/commands/panels/spring.py" line="39" />
      <source>Kind</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="32" />
      <source>Law</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/event_view.py" line="93" />
      <source>Length of the contact force arrows per newton</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/fem_command.py" line="133" />
      <source>Load cases to analyse:</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/animate.py" line="315" />
      <source>Loop</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="85" />
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="79" />
      <source>Make statically determinate</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/body.py" line="102" />
      <source>Mass %.6g kg
CoG (%.4g, %.4g, %.4g) mm
Inertia about the CoG [kg mm^2]:
Ixx %.5g  Iyy %.5g  Izz %.5g
Ixy %.5g  Ixz %.5g  Iyz %.5g</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/body.py" line="49" />
      <source>Mass (0: from density)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/body.py" line="47" />
      <source>Material</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="30" />
      <source>Material 1</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="31" />
      <source>Material 2</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/preferences.py" line="82" />
      <location filename="../../../MBDWorkbench/commands/report_command.py" line="226" />
      <location filename="../../../MBDWorkbench/commands/report_command.py" line="269" />
      <location filename="../../../MBDWorkbench/commands/report_command.py" line="265" />
      <source>Motion-study report</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/preferences.py" line="77" />
      <source>Multibody Dynamics</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/preferences.py" line="89" />
      <source>New simulations</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/free_body.py" line="216" />
      <source>No free-body diagram: %s</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/common.py" line="331" />
      <source>No results yet: run Solve first.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/joint_panel.py" line="59" />
      <source>Offset</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/joint.py" line="53" />
      <source>Offset along z</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/joint_panel.py" line="88" />
      <source>Origin (%.2f, %.2f, %.2f) mm
z axis (%.3f, %.3f, %.3f)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/joint.py" line="183" />
      <source>Origin (%.4g, %.4g, %.4g) mm
z axis (%.4f, %.4f, %.4f)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="23" />
      <source>Output step</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="24" />
      <source>Overlap tol.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="108" />
      <source>Parameter</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="88" />
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="271" />
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="72" />
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="226" />
      <source>Parameter study</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/body.py" line="37" />
      <source>Part</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="78" />
      <source>Phase</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/free_body.py" line="168" />
      <location filename="../../../MBDWorkbench/commands/free_body.py" line="291" />
      <source>Pick a body to see the loads on it.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="114" />
      <source>Pick a face or a body on each of two parts (for all pairs: every body) in the 3D view or the tree.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/body.py" line="57" />
      <source>Pick a part (any face, edge or the object in the tree).</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/force_element.py" line="133" />
      <source>Pick the bodies or joints in the tree or the 3D view, or choose them above.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="85" />
      <source>Pick the joint to drive (in the tree or its frame).</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="227" />
      <source>Pick the point of application on a part (or a body in the tree).</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="61" />
      <source>Plane faces end at edges</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/animate.py" line="311" />
      <source>Play</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/plot_dock.py" line="392" />
      <source>Plots</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/spring.py" line="43" />
      <source>Point %d</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="207" />
      <source>Point %s</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="69" />
      <source>Profile</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/joint.py" line="47" />
      <source>Reference %d</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="25" />
      <source>Rel. tolerance (0: default)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="88" />
      <source>Relax the joints the mobility analysis proposes (e.g. revolute -&gt; cylindrical) before each run, so that every reaction is unique; the summary and the report list them</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="20" />
      <source>Restitution e</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/joint_panel.py" line="46" />
      <location filename="../../../MBDWorkbench/commands/panels/joint.py" line="48" />
      <source>Reverse the z axis</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/joint_panel.py" line="60" />
      <source>Rotation</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/joint.py" line="54" />
      <source>Rotation about z</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="120" />
      <source>Run</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="427" />
      <source>Run cancelled; the results computed so far are kept.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/plot_dock.py" line="229" />
      <source>Save PNG...</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/free_body.py" line="247" />
      <source>Scale: %.0f mm = %.4g N (the largest force over the run) and %.4g N m (the largest moment: double heads). Hover a row for its components.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="113" />
      <source>Seed</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="187" />
      <source>Select one joint first.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/free_body.py" line="174" />
      <source>Show each load's magnitude [N or N m] at its arrow's tip</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="73" />
      <source>Side %d</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="121" />
      <source>Simulating %s ...</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="164" />
      <source>Simulating %s: t = %.4g of %.4g s (%s)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="64" />
      <source>Simulation</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="23" />
      <source>Slip speed</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="474" />
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="460" />
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="468" />
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="476" />
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="478" />
      <source>Solve</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="100" />
      <source>Solve (applies the settings)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/animate.py" line="321" />
      <source>Speed</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="234" />
      <source>Starting the workers ...</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="188" />
      <source>Status: %s</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="172" />
      <source>Status: solving...</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="24" />
      <source>Step (0: default)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="18" />
      <location filename="../../../MBDWorkbench/commands/panels/spring.py" line="47" />
      <source>Stiffness</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="104" />
      <source>Stiffness 0: Hertz from the materials. mu kinetic below 0: equal to mu static. Deflection: the mesh of a solid that is not a plane, sphere, box or cylinder.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/event_view.py" line="101" />
      <source>Stop impacts: %d (their joint's parts flash). Contact pairs: %d (force arrows).</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="115" />
      <source>Study folder</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/free_body.py" line="164" />
      <source>The body whose loads are drawn (or pick its part in the 3D view)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="65" />
      <source>The document already has a simulation: '%s'.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/fem_command.py" line="123" />
      <source>The largest joint reaction only</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="461" />
      <source>The model is over-driven; the run was refused.

Drivers in conflict:
%s

%s</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="429" />
      <source>The run stopped: %s</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="270" />
      <source>The study stopped: %s</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="481" />
      <source>The warnings stay listed in the Simulation panel (double-click the Simulation).</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="395" />
      <source>This document has no Assembly (FreeCAD 1.0 Assembly workbench).</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="29" />
      <source>Tikhonov epsilon</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="111" />
      <source>To</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/spring.py" line="61" />
      <source>Translational: pick a point on each of two parts. Rotational: pick a revolute or cylindrical joint in the tree.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/joint.py" line="43" />
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="68" />
      <source>Type</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/free_body.py" line="172" />
      <source>Values at the arrows</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="112" />
      <source>Variants (grid points or samples)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="435" />
      <source>Warnings (check before using the results):</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="114" />
      <source>Workers</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/report_command.py" line="270" />
      <source>Written:</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="163" />
      <source>cancelling...</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="82" />
      <source>f(t) =</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="150" />
      <source>f(t) in %s, t in s, e.g. 90*sin(2*pi*t)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/force_element.py" line="52" />
      <source>given (unchecked: %s)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="118" />
      <source>local (worker processes on this computer)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="22" />
      <source>mu kinetic</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="21" />
      <source>mu static</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/joint.py" line="104" />
      <source>mu_s, mu_k, lengths</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="251" />
      <source>part '%s' is not a body yet: make it a body first</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="37" />
      <source>regularised (creeps)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="92" />
      <source>regularised: friction below mu static holds by a slow creep (every integrator). stiction: it sticks, solved exactly (ODE-form integrators; pairs against a plane, two spheres, a sphere and a cylinder)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/contact.py" line="38" />
      <source>stiction (sticks)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/animate.py" line="358" />
      <source>t = %.4f s (sample %d of %d)</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_About</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/about.py" line="33" />
      <location filename="../../../MBDWorkbench/commands/about.py" line="46" />
      <source>About Multibody Dynamics</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/about.py" line="34" />
      <source>Version and installation of the Multibody Dynamics workbench</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_Animate</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/animate.py" line="511" />
      <source>Animate</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/animate.py" line="512" />
      <source>Play the results: move the parts along the simulated motion</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_Body</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="98" />
      <source>Body</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="99" />
      <source>Make the selected parts rigid bodies (mass from their solids, steel by default)</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_BodyGroup</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/__init__.py" line="47" />
      <source>Bodies</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/__init__.py" line="48" />
      <source>Moving or grounded rigid bodies</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_Catalog</name>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>3 profiles, N</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>3 profiles, N m</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>A force [N] at a body point, profiles of t, global or body frame</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>A torque [N m] on a body, profiles of t, global or body frame</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Angle between axes</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Ball joint at a point (pick a vertex, circle or sphere)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Belt drive</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Cardan joint: pick one axis on each part (the cross axes)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Couples the rotations of two gears about their frames' z axes (radius_i theta_i = -radius_j theta_j, angles of the line of centres in each frame): opposite turning</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Couples the rotations of two pulleys about their frames' z axes (radius_i theta_i = radius_j theta_j): same turning</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Couples the translation of the nut (body_i, along its frame's z axis) and the rotation of the screw (body_j, about it): z = pitch theta / 2 pi + const</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Couples the translation of the rack (body_i, along its frame's x axis) and the rotation of the pinion (body_j, about the frame's z axis): x + radius theta = const</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Cylindrical joint</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Distance joint (rod)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Fixed joint</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Force</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Gear pair</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Glues two parts together</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Keeps the z axes of the two frames at the joint's angle (orientation only)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Keeps the z axes of the two frames parallel (orientation only)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Keeps the z axes of the two frames perpendicular (orientation only)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Line in plane</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Linear driver</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Massless rod: keeps two points at a fixed distance (picked point on the first part, centre of gravity of the second)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Motion in a plane (pick a planar face: its normal)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>N m s/rad</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>N m/rad</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>N s/m</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>N/m</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Parallel axes</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Parallel lines at a distance</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Perpendicular axes</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Planar joint</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Point at a distance from a line</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Point in plane</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Point on line</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Prismatic joint</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Rack and pinion</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Revolute joint</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Rotation about and translation along one axis</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Rotation about one axis (pick a circular edge, cylindrical face, ...)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Rotational driver</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Rotational spring-damper on a revolute or cylindrical joint</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Screw</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Spherical joint</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Spring-damper</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>The frame origin on the second part stays at the joint's length from the z axis of the first frame</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>The frame origin on the second part stays in the x-y plane of the first frame</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>The frame origin on the second part stays on the z axis of the first frame</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>The z axes of the two frames stay parallel, at the joint's length from each other</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>The z axis of the second frame stays in the x-y plane of the first frame</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Torque</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Torsion spring-damper</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Translation along one axis</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Translational spring-damper between two body points</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>Universal joint</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>`global`/`body`, default `global`</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>body</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>body i</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>body j</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>damping</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>force</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>frame</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>free angle</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>free length</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>global</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>global, default: the CoG</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>joint</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>m, default: the initial distance</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>point</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>point i</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>point j</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>rad, joint angle, 0 at the initial configuration, measured in (-pi, pi] around it</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>revolute/cylindrical</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>stiffness</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/solver/model/catalog.py" line="0" />
      <source>torque</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_Check</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="46" />
      <source>Check model</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="47" />
      <source>Degrees of freedom and redundant constraints of the mechanism</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_Contact</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="327" />
      <source>Contact</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="328" />
      <source>Contact between two bodies or two picked faces, or all pairs among bodies (a drop test, a cam)</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_Driver</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="197" />
      <source>Drive the selected joint (motor): angle or displacement as a function of time</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="196" />
      <source>Driver</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_EditJointFrame</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="180" />
      <source>Edit joint frame</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="181" />
      <source>Flip, offset or rotate the frame of the selected joint</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_ExportJSON</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="359" />
      <source>Export JSON model</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="360" />
      <source>Write the model as a JSON file for the command-line solver</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_FemCheck</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/fem_command.py" line="139" />
      <source>FEM check of a body</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/fem_command.py" line="140" />
      <source>The selected body's joint, gravity and inertial loads at every critical instant (or at its largest joint reaction) into FEM analyses solved by CalculiX, written into a copy of the saved document (docs/fem.md)</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_Force</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="300" />
      <source>Force</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="301" />
      <source>Point force at the picked point of a part (or at the CoG of a selected body)</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_GroundedBody</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="115" />
      <source>Grounded body</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="116" />
      <source>Make the selected parts bodies fixed to the ground</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_ImportAssembly</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="379" />
      <source>Create bodies and joints from a FreeCAD 1.0 Assembly (%s, planar Distance, Grounded)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="378" />
      <source>Import assembly joints</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_JointGroup</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/__init__.py" line="52" />
      <source>Joints</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/__init__.py" line="53" />
      <source>Joints from picked geometry, one per joint type</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_LoadGroup</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/__init__.py" line="57" />
      <source>Drivers and loads</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/__init__.py" line="58" />
      <source>Drivers, spring-dampers, forces, contacts</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_ParameterStudy</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="56" />
      <source>Parameter study</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="57" />
      <source>Vary one value of the model over a range (grid, Latin hypercube, Monte Carlo) and compare the KPIs</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_Plot</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/plot_dock.py" line="387" />
      <source>Dock with reactions, driver efforts, drift and energy of the last run</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/plot_dock.py" line="386" />
      <source>Plots</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_Report</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/report_command.py" line="233" />
      <source>Motion-study report</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/report_command.py" line="234" />
      <source>Write an HTML/PDF report of the stored results and a GIF of the motion rendered from the 3D view</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_Simulation</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="55" />
      <source>Create the simulation container (end time, integrator, gravity)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="54" />
      <source>Simulation</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_Solve</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="442" />
      <source>Run the dynamic simulation (progress bar with Cancel); results are kept in the document</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="441" />
      <source>Solve</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_SpringDamper</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="263" />
      <source>Spring-damper</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="264" />
      <source>Spring-damper between two picked points on two parts, or a rotational one on the selected joint (%s)</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_ToolsGroup</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/__init__.py" line="63" />
      <source>FEM check, parameter study, JSON export, Assembly import</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/__init__.py" line="62" />
      <source>Tools</source>
      <translation type="unfinished" />
    </message>
  </context>
</TS>
